// Declarations only (include/CFuzzer.h); libFuzzer itself comes from -sanitize=fuzzer.
#include "CFuzzer.h"
