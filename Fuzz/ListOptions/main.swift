import FuzzSupport

runLibFuzzer { data, count in fuzzListOptions(data, count) }
