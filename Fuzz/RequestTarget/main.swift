import FuzzSupport

runLibFuzzer { data, count in fuzzRequestTarget(data, count) }
