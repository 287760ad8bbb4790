#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM gives every executable
// its own entry point (`<Target>_main`, aliased to `main`), which shadows libFuzzer's `main`;
// the fuzz targets' main.swift calls this instead. Goes when SwiftPM can build an executable
// without an entry point of its own.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
