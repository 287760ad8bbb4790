import FuzzSupport

runLibFuzzer(fuzzListOptions)
