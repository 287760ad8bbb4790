import FuzzSupport

runLibFuzzer(fuzzRouter)
