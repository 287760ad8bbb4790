import FuzzSupport

runLibFuzzer(fuzzMergePatch)
