import FuzzSupport

runLibFuzzer(fuzzRequestTarget)
