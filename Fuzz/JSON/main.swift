import FuzzSupport

runLibFuzzer { data, count in fuzzJSON(data, count) }
