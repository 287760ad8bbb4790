import FuzzSupport

runLibFuzzer(fuzzItemDecoder)
