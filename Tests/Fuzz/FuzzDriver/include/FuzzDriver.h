#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs that have a main of their own: parses libFuzzer's arguments and
/// runs `callback` on each input. SwiftPM gives every executable target a main of its own (it
/// renames the module's entry point so that tests can link it), so the fuzz targets start libFuzzer
/// through this instead of through libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
