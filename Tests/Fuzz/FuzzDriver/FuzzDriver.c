// Declarations only (include/FuzzDriver.h); libFuzzer defines them when linked with -sanitize=fuzzer.
#include "FuzzDriver.h"
