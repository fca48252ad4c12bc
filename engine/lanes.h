/* Lanes: CAROM_LANES doubles handled as one value, for the wide contact solver.
 *
 * Include this header after defining CAROM_LANES (1, 2, 4 or 8). With 1, a lane value is a plain
 * double; otherwise it is a GCC/Clang vector of CAROM_LANES doubles, which the compiler maps onto
 * whatever the translation unit is compiled for: SSE2, AVX2 or AVX-512 on x86, NEON on aarch64,
 * WebAssembly SIMD, or pairs of scalar instructions where there is none.
 *
 * Why the same bits at every width: each lane only ever meets its own lane. Every operation used
 * here is an IEEE 754 operation done per lane (+ - * /, comparisons, and selects by bit masks),
 * so lane k of a wide result is bit for bit what the same operations give on that lane's
 * doubles alone, and the width changes how many constraints are worked on at once, never a
 * result. There are no horizontal sums, no reciprocal estimates, no fused multiply-adds
 * (core.h turns contraction off in every engine file) and no libm. */
#ifndef CAROM_LANES_H
#define CAROM_LANES_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#if !defined(CAROM_LANES)
#error "define CAROM_LANES (1, 2, 4 or 8) before including lanes.h"
#endif

#if CAROM_LANES == 1
typedef double lane_d;
typedef int64_t lane_mask; /* 0 or -1 (all bits set) */
#else
typedef double lane_d __attribute__((vector_size(8 * CAROM_LANES)));
typedef int64_t lane_mask __attribute__((vector_size(8 * CAROM_LANES)));
#endif

/* CAROM_LANES int32 as one value: a group's per-lane flags (contact_solver.h). */
#if CAROM_LANES == 1
typedef int32_t lane_i32;
#else
typedef int32_t lane_i32 __attribute__((vector_size(4 * CAROM_LANES)));
#endif

/* value in every lane: value - (+0) is value exactly, -0 included. */
static CAROM_FORCE_INLINE lane_d lane_splat(double value) {
    return value - (lane_d){0};
}

static CAROM_FORCE_INLINE lane_d lane_zero(void) {
    return (lane_d){0};
}

/* A mask with no lane set. */
static CAROM_FORCE_INLINE lane_mask lane_zero_mask(void) {
    return (lane_mask){0};
}

/* All bits of the mask where a > b, none elsewhere. */
static CAROM_FORCE_INLINE lane_mask lane_greater(lane_d a, lane_d b) {
#if CAROM_LANES == 1
    return a > b ? -1 : 0;
#else
    return (lane_mask)(a > b);
#endif
}

static CAROM_FORCE_INLINE lane_mask lane_equal(lane_d a, lane_d b) {
#if CAROM_LANES == 1
    return a == b ? -1 : 0;
#else
    return (lane_mask)(a == b);
#endif
}

/* mask ? a : b, lane by lane, exactly (the bits of a or of b). With AVX one blend, which
 * takes a lane by its mask's sign bit (a mask's lanes are 0 or all bits set): the bit
 * operations below are three instructions there, and the kernels select a lot. */
static CAROM_FORCE_INLINE lane_d lane_select(lane_mask mask, lane_d a, lane_d b) {
#if CAROM_LANES == 1
    return mask ? a : b;
#elif CAROM_LANES == 4 && defined(__AVX__)
    __m256d m, va, vb;
    __builtin_memcpy(&m, &mask, sizeof(m));
    __builtin_memcpy(&va, &a, sizeof(va));
    __builtin_memcpy(&vb, &b, sizeof(vb));
    __m256d r = _mm256_blendv_pd(vb, va, m);
    lane_d result;
    __builtin_memcpy(&result, &r, sizeof(result));
    return result;
#else
    return (lane_d)(((lane_mask)a & mask) | ((lane_mask)b & ~mask));
#endif
}

/* carom_max_d and carom_min_d lane by lane: on a tie, the second argument. On x86 one
 * instruction each, which is exactly this select: MAXPD gives its first operand where it is
 * greater than the second, else the second (ties, signed zeros and NaN included), and MINPD its
 * first where it is less. The compare and blend they replace were two instructions and twice the
 * latency on the solver's longest chain (every impulse is clamped: the normal at 0, friction to
 * its cone). NEON's and WebAssembly's max and min treat NaN and zeros otherwise: the select
 * stays there. */
#if CAROM_LANES == 8 && defined(__AVX512F__)
#define CAROM_LANE_MAX(a, b) ((lane_d)_mm512_max_pd((__m512d)(a), (__m512d)(b)))
#define CAROM_LANE_MIN(a, b) ((lane_d)_mm512_min_pd((__m512d)(a), (__m512d)(b)))
#elif CAROM_LANES == 4 && defined(__AVX__)
#define CAROM_LANE_MAX(a, b) ((lane_d)_mm256_max_pd((__m256d)(a), (__m256d)(b)))
#define CAROM_LANE_MIN(a, b) ((lane_d)_mm256_min_pd((__m256d)(a), (__m256d)(b)))
#elif CAROM_LANES == 2 && defined(__SSE2__)
#define CAROM_LANE_MAX(a, b) ((lane_d)_mm_max_pd((__m128d)(a), (__m128d)(b)))
#define CAROM_LANE_MIN(a, b) ((lane_d)_mm_min_pd((__m128d)(a), (__m128d)(b)))
#else
#define CAROM_LANE_MAX(a, b) lane_select(lane_greater(a, b), a, b)
#define CAROM_LANE_MIN(a, b) lane_select(lane_greater(b, a), a, b)
#endif

static CAROM_FORCE_INLINE lane_d lane_max(lane_d a, lane_d b) {
    return CAROM_LANE_MAX(a, b);
}

static CAROM_FORCE_INLINE lane_d lane_min(lane_d a, lane_d b) {
    return CAROM_LANE_MIN(a, b);
}
#undef CAROM_LANE_MAX
#undef CAROM_LANE_MIN

/* One bit per lane of a mask (its lanes are 0 or all bits set): a single instruction where
 * the width has one, the kernels ask it once per group. */
static CAROM_FORCE_INLINE unsigned lane_bits(lane_mask mask) {
#if CAROM_LANES == 1
    return mask != 0;
#elif CAROM_LANES == 8 && defined(__AVX512F__)
    __m512i m;
    __builtin_memcpy(&m, &mask, sizeof(m));
    return _mm512_test_epi64_mask(m, m);
#elif CAROM_LANES == 4 && defined(__AVX__)
    __m256d m;
    __builtin_memcpy(&m, &mask, sizeof(m));
    return (unsigned)_mm256_movemask_pd(m);
#elif CAROM_LANES == 2 && defined(__SSE2__)
    __m128d m;
    __builtin_memcpy(&m, &mask, sizeof(m));
    return (unsigned)_mm_movemask_pd(m);
#else
    unsigned bits = 0;
    for (int i = 0; i < CAROM_LANES; ++i) {
        bits |= (mask[i] != 0) << i;
    }
    return bits;
#endif
}

/* Whether any lane of the mask is set, and whether every lane is. */
static CAROM_FORCE_INLINE bool lane_any(lane_mask mask) {
    return lane_bits(mask) != 0;
}

static CAROM_FORCE_INLINE bool lane_all(lane_mask mask) {
    return lane_bits(mask) == (1u << CAROM_LANES) - 1u;
}

/* Lane flags from CAROM_LANES consecutive int32, and back. */
static CAROM_FORCE_INLINE lane_i32 lane_load_i32(const int32_t* p) {
    lane_i32 value;
    __builtin_memcpy(&value, p, sizeof(value));
    return value;
}

static CAROM_FORCE_INLINE void lane_store_i32(int32_t* p, lane_i32 value) {
    __builtin_memcpy(p, &value, sizeof(value));
}

/* Whether two lane flags differ in any lane. */
static CAROM_FORCE_INLINE bool lane_i32_differ(lane_i32 a, lane_i32 b) {
#if CAROM_LANES == 1
    return a != b;
#elif CAROM_LANES == 4 && defined(__AVX2__)
    __m128i x;
    lane_i32 bits = a ^ b;
    __builtin_memcpy(&x, &bits, sizeof(x));
    return !_mm_testz_si128(x, x);
#else
    /* the lanes' bits as 64-bit words */
    uint64_t words[CAROM_LANES / 2];
    lane_i32 bits = a ^ b;
    __builtin_memcpy(words, &bits, sizeof(words));
    uint64_t differ = 0;
    for (int i = 0; i < CAROM_LANES / 2; ++i) {
        differ |= words[i];
    }
    return differ != 0;
#endif
}

/* The lanes whose flags have `bit` set, as a mask. */
static CAROM_FORCE_INLINE lane_mask lane_flag_mask(lane_i32 flags, int32_t bit) {
#if CAROM_LANES == 1
    return (flags & bit) != 0 ? -1 : 0;
#elif CAROM_LANES == 4 && defined(__AVX2__)
    /* one widening instruction: the generic conversion below became five */
    __m128i f;
    __builtin_memcpy(&f, &flags, sizeof(f));
    __m128i b = _mm_set1_epi32(bit);
    __m256i wide = _mm256_cvtepi32_epi64(_mm_cmpeq_epi32(_mm_and_si128(f, b), b));
    lane_mask mask;
    __builtin_memcpy(&mask, &wide, sizeof(mask));
    return mask;
#else
    /* == bit rather than != 0: one comparison, no inversion after it */
    return __builtin_convertvector((flags & bit) == bit, lane_mask); /* -1 stays -1 */
#endif
}

/* `bit1` in the lanes of mask1 and `bit2` in those of mask2 (0 elsewhere), as lane flags:
 * the masks meet before the one narrowing to int32. */
static CAROM_FORCE_INLINE lane_i32 lane_flag_bits2(lane_mask mask1, int32_t bit1, lane_mask mask2,
                                                   int32_t bit2) {
#if CAROM_LANES == 1
    return (mask1 != 0 ? bit1 : 0) | (mask2 != 0 ? bit2 : 0);
#elif CAROM_LANES == 4 && defined(__AVX2__)
    /* the low halves of the four 64-bit lanes gathered by one permutation: the generic
     * narrowing below took eight instructions */
    lane_mask bits = (mask1 & bit1) | (mask2 & bit2);
    __m256i wide;
    __builtin_memcpy(&wide, &bits, sizeof(wide));
    __m128i narrow = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(wide, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
    lane_i32 result;
    __builtin_memcpy(&result, &narrow, sizeof(result));
    return result;
#else
    return __builtin_convertvector((mask1 & bit1) | (mask2 & bit2), lane_i32);
#endif
}

/* mask ? a : b for masks, lane by lane. */
static CAROM_FORCE_INLINE lane_mask lane_select_mask(lane_mask mask, lane_mask a, lane_mask b) {
    return (a & mask) | (b & ~mask);
}

/* The square root lane by lane (correctly rounded, as sqrt is everywhere). */
static CAROM_FORCE_INLINE lane_d lane_sqrt(lane_d x) {
#if CAROM_LANES == 1
    return __builtin_sqrt(x);
#else
    lane_d r = x; /* every lane is overwritten; starting from x keeps gcc -O3 from warning */
    for (int i = 0; i < CAROM_LANES; ++i) {
        r[i] = __builtin_sqrt(x[i]);
    }
    return r;
#endif
}

/* A lane value from CAROM_LANES consecutive doubles, and back (memcpy: no aliasing rule is
 * bent, and it compiles to one load or store). */
static CAROM_FORCE_INLINE lane_d lane_load(const double* p) {
    lane_d value;
    __builtin_memcpy(&value, p, sizeof(value));
    return value;
}

static CAROM_FORCE_INLINE void lane_store(double* p, lane_d value) {
    __builtin_memcpy(p, &value, sizeof(value));
}

/* A lane value from CAROM_LANES consecutive floats, each widened to double (exact), and back,
 * each rounded to the nearest float: for the fields a group stores in single precision
 * (contact_solver.h). Both are IEEE conversions, correctly rounded in the default rounding mode
 * on every target (cvtps2pd/cvtpd2ps on x86, SSE in the i686 build too, fcvtl/fcvtn on NEON,
 * promote/demote in WebAssembly), so lane k gives the bits the scalar casts give. */
#if CAROM_LANES == 1
static CAROM_FORCE_INLINE lane_d lane_load_float(const float* p) {
    return (double)*p;
}

static CAROM_FORCE_INLINE void lane_store_float(float* p, lane_d value) {
    *p = (float)value;
}
#else
typedef float lane_f __attribute__((vector_size(4 * CAROM_LANES)));

/* With SSE2, AVX and AVX-512 one load and one conversion (gcc made the generic conversion
 * below two-float halves put together: twice the instructions of the solve pass's loads). */
static CAROM_FORCE_INLINE lane_d lane_load_float(const float* p) {
    lane_d result;
#if CAROM_LANES == 8 && defined(__AVX512F__)
    __m512d wide = _mm512_cvtps_pd(_mm256_loadu_ps(p));
    __builtin_memcpy(&result, &wide, sizeof(result));
#elif CAROM_LANES == 4 && defined(__AVX__)
    __m256d wide = _mm256_cvtps_pd(_mm_loadu_ps(p));
    __builtin_memcpy(&result, &wide, sizeof(result));
#elif CAROM_LANES == 2 && defined(__SSE2__)
    __m128d wide = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i*)(const void*)p)));
    __builtin_memcpy(&result, &wide, sizeof(result));
#else
    lane_f value;
    __builtin_memcpy(&value, p, sizeof(value));
    result = __builtin_convertvector(value, lane_d);
#endif
    return result;
}

static CAROM_FORCE_INLINE void lane_store_float(float* p, lane_d value) {
#if CAROM_LANES == 8 && defined(__AVX512F__)
    __m512d wide;
    __builtin_memcpy(&wide, &value, sizeof(wide));
    _mm256_storeu_ps(p, _mm512_cvtpd_ps(wide));
#elif CAROM_LANES == 4 && defined(__AVX__)
    __m256d wide;
    __builtin_memcpy(&wide, &value, sizeof(wide));
    _mm_storeu_ps(p, _mm256_cvtpd_ps(wide));
#elif CAROM_LANES == 2 && defined(__SSE2__)
    __m128d wide;
    __builtin_memcpy(&wide, &value, sizeof(wide));
    _mm_storel_epi64((__m128i*)(void*)p, _mm_castps_si128(_mm_cvtpd_ps(wide)));
#else
    lane_f narrow = __builtin_convertvector(value, lane_f);
    __builtin_memcpy(p, &narrow, sizeof(narrow));
#endif
}
#endif

#endif
