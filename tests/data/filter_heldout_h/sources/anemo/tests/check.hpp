#pragma once
#include <cmath>
#include <cstdio>

static int failures = 0;
#define CHECK_NEAR(got, want, tol)                                                                  \
    do {                                                                                            \
        double g_ = (got), w_ = (want);                                                             \
        if (std::fabs(g_ - w_) > (tol)) {                                                           \
            std::printf("%s:%d: CHECK_NEAR(%s, %s) failed: got %g, want %g\n", __FILE__, __LINE__, \
                        #got, #want, g_, w_);                                                       \
            ++failures;                                                                             \
        }                                                                                           \
    } while (0)
#define CHECK_EQ(got, want)                                                                               \
    do {                                                                                                  \
        if (!((got) == (want))) {                                                                         \
            std::printf("%s:%d: CHECK_EQ(%s, %s) failed\n", __FILE__, __LINE__, #got, #want);            \
            ++failures;                                                                                   \
        }                                                                                                 \
    } while (0)
#define DONE() (std::printf("%d failure(s)\n", failures), failures ? 1 : 0)
