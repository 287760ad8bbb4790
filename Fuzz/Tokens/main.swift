import FuzzSupport

runLibFuzzer(fuzzTokens)
