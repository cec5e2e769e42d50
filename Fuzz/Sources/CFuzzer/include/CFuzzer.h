// libFuzzer's driver entry point (compiler-rt FuzzerInterface.h). SwiftPM links every executable with
// `main` renamed to `<target>_main`, so each fuzz target starts libFuzzer itself through this call.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
