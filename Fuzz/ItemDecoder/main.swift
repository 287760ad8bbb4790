import FuzzSupport

runLibFuzzer { data, count in fuzzItemDecoder(data, count) }
