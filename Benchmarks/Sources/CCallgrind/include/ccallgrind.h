// Callgrind client requests (valgrind/callgrind.h), so the benchmark counts instructions of the
// matching loop only. No-ops when valgrind's headers are absent or when not running under valgrind.
#ifndef CCALLGRIND_H
#define CCALLGRIND_H
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CCALLGRIND_AVAILABLE 1
#endif
#endif

static inline void bench_callgrind_start(void) {
#ifdef CCALLGRIND_AVAILABLE
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

static inline void bench_callgrind_stop(void) {
#ifdef CCALLGRIND_AVAILABLE
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("match");
#endif
}
#endif
