import FuzzSupport

runLibFuzzer { data, count in fuzzMergePatch(data, count) }
