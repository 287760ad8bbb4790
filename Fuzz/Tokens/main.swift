import FuzzSupport

runLibFuzzer { data, count in fuzzTokens(data, count) }
