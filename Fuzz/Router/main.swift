import FuzzSupport

runLibFuzzer { data, count in fuzzRouter(data, count) }
