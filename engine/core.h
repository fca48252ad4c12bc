/* Engine-internal support: determinism guards, allocation, asserts and error reporting.
 * Every engine source file includes this header first. */
#ifndef CAROM_CORE_H
#define CAROM_CORE_H

/* Determinism survives vendoring: refuse -ffast-math, and turn floating-point contraction
 * (fused multiply-add) off in the source itself, not only in our meson flags, because FMA
 * changes the bits of results between machines.
 * GCC's vectorizer also fuses: with FMA in the target (-march=haswell or later, -mfma) GCC 12
 * turns vectorized a*b - c*d, a*e + c*f pairs into vfmaddsub even under -ffp-contract=off, so
 * the same source gave other bits at -O3 -march=native. Vectorization is off for GCC here;
 * measured, the determinism scenes ran no slower without it. Clang honours its pragma unless
 * -ffp-contract=fast is given explicitly, which docs/determinism.md forbids. */
#if defined(__FAST_MATH__)
#error "carom must not be compiled with -ffast-math: it breaks bit-exact determinism"
#endif
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-tree-vectorize")
#endif

/* MinGW-w64 (Windows): the C99 printf family of MinGW's own runtime rather than msvcrt's, which
 * has no %zu, for the error messages. It must come before the first system header. */
#if defined(__MINGW32__) && !defined(__USE_MINGW_ANSI_STDIO)
#define __USE_MINGW_ANSI_STDIO 1
#endif

#include "carom/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Internal invariant checks: a failure is a bug in carom, never a user error. */
#if defined(NDEBUG) && !defined(CAROM_ENABLE_ASSERTS)
#define CAROM_ASSERTS_ON 0
#define CAROM_ASSERT(condition) ((void)0)
#else
#define CAROM_ASSERTS_ON 1 /* for checks that need a function of their own */
#define CAROM_ASSERT(condition)                                                                    \
    ((condition) ? (void)0 : carom_assert_failed(#condition, __FILE__, __LINE__))
#endif

void carom_assert_failed(const char* condition, const char* file, int line);

/* For small functions of the hot loops that must be inlined to be specialised (a point count
 * that is a constant only once inlined), where the compiler's own weighing declines. */
#if defined(__GNUC__) || defined(__clang__)
#define CAROM_FORCE_INLINE inline __attribute__((always_inline))
#else
#define CAROM_FORCE_INLINE inline
#endif

/* Fetch every cache line of the bytes [record, record + size) into the cache, to be read or to
 * be written: a hint only, for loops that reach records in an order the hardware cannot foresee.
 * Forced inline, as must be the callers that only fetch: gcc 12 takes a function of nothing but
 * prefetches for one without effects and drops its calls (solver.c's finalize_bodies lost all
 * of its prefetches so). The last byte is fetched too, as a record need not start on a line. */
static CAROM_FORCE_INLINE void carom_prefetch_lines(const void* record, size_t size) {
    const char* bytes = record;
    for (size_t offset = 0; offset < size; offset += 64) {
        __builtin_prefetch(bytes + offset, 0);
    }
    __builtin_prefetch(bytes + size - 1, 0);
}

static CAROM_FORCE_INLINE void carom_prefetch_lines_for_write(const void* record, size_t size) {
    const char* bytes = record;
    for (size_t offset = 0; offset < size; offset += 64) {
        __builtin_prefetch(bytes + offset, 1);
    }
    __builtin_prefetch(bytes + size - 1, 1);
}

/* Allocation through the user's hook (carom_set_allocator). Never returns NULL for size > 0. */
void* carom_alloc(size_t size);
void* carom_realloc(void* pointer, size_t size);
void carom_free(void* pointer);

/* Record a failure for carom_last_status()/carom_last_error() and return its status, so that
 * API functions can write `return carom_fail(CAROM_ERROR_..., "...", ...);`. */
/* The format checks of the printf family in use: MinGW's C99 one (above), not msvcrt's. */
#if defined(__MINGW32__)
#define CAROM_PRINTF_FORMAT gnu_printf
#else
#define CAROM_PRINTF_FORMAT printf
#endif
carom_status carom_fail(carom_status status, const char* format, ...)
    __attribute__((format(CAROM_PRINTF_FORMAT, 2, 3)));

/* Checks shared by the API boundary: each records a message naming `what` on failure. */
carom_status carom_check_finite(double value, const char* what);
carom_status carom_check_finite_vec2(double x, double y, const char* what);
/* Every point of a polygon outline, each named "polygon vertex i" in the message. */
struct carom_vec2; /* carom/math.h: this header stays free of the math types */
carom_status carom_check_polygon_points_finite(const struct carom_vec2* points, int count);
carom_status carom_check_non_negative(double value, const char* what);
carom_status carom_check_positive(double value, const char* what);
carom_status carom_check_unit_interval(double value, const char* what);
/* A shape density: 0 (no mass) or from CAROM_MIN_DENSITY up. */
carom_status carom_check_density(double value, const char* what);

/* Smaller and larger of two doubles. Not libm's fmin/fmax: those may return either zero for
 * (+0, -0), and different libms choose differently, which would change result bits between
 * platforms. These always return the second argument on a tie. */
static inline double carom_min_d(double a, double b) { return a < b ? a : b; }
static inline double carom_max_d(double a, double b) { return a > b ? a : b; }

/* SplitMix64's finaliser: a bijection of 64-bit values in which every input bit affects every
 * output bit. Unsigned arithmetic only. Hash-map slots and snapshot checksums use it. */
static inline uint64_t carom_mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* Sort a short list of ids ascending in place (insertion sort: a body's contacts or joints,
 * a handful). */
static inline void carom_sort_few_ids(int* ids, int count) {
    for (int i = 1; i < count; ++i) {
        int id = ids[i];
        int j = i - 1;
        for (; j >= 0 && ids[j] > id; --j) {
            ids[j + 1] = ids[j];
        }
        ids[j + 1] = id;
    }
}

/* The cookie default constructors put in defs, so hand-built defs are caught. */
#define CAROM_DEF_COOKIE 0x0c4a0bad

#endif
