/* A wall clock that is off (issue 11): LD_PRELOADed into a relay process by ClockSkewTests,
   it moves CLOCK_REALTIME, gettimeofday and time by RELAY_TEST_CLOCK_SKEW_SECONDS and leaves
   the monotonic clocks alone. Built by the test with the C compiler that comes with Swift. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long offset(void) {
    const char *text = getenv("RELAY_TEST_CLOCK_SKEW_SECONDS");
    return text ? atol(text) : 0;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(id, ts);
    if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += offset();
    return result;
}

int gettimeofday(struct timeval *tv, void *tz) {
    static int (*real)(struct timeval *, void *);
    if (!real) real = (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(tv, tz);
    if (result == 0) tv->tv_sec += offset();
    return result;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
