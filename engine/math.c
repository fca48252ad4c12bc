/* carom's own sine, cosine and arc tangent.
 *
 * Why not libm: glibc, musl, Emscripten and macOS libm give different last bits for sin, cos
 * and atan2, which would make the same scene end in different states on different machines.
 * These use only + - * / and sqrt, which IEEE 754 rounds the same way everywhere.
 *
 * sin/cos: reduce the angle by multiples of pi/2 with pi/2 split in three parts of 33 bits
 * (Cody and Waite), so k * part is exact for |k| < 2^20, then a Taylor series on [-pi/4, pi/4]
 * whose first omitted term is below 2^-56. atan: fold into [0, 1], then [-tan(pi/8), tan(pi/8)]
 * by atan(t) = pi/4 + atan((t - 1) / (t + 1)), halve the angle once with
 * atan(u) = 2 atan(u / (1 + sqrt(1 + u^2))), then a Taylor series of twelve terms.
 * tests/test_math.c measures the error against libm; docs/guide.md records the bound. */
#include "core.h"

#include "carom/math.h"

#include <math.h>

/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 to about 150 bits; each part has at most 33 significant bits */
static const double PIO2_1 = 1.57079632673412561417e+00;
static const double PIO2_2 = 6.07710050630396597660e-11;
static const double PIO2_3 = 2.02226624871116645580e-21;
static const double PIO2_3_TAIL = 8.47842766036889956997e-32;

/* sin(r) for |r| <= pi/4 */
static double sin_kernel(double r) {
    double r2 = r * r;
    double p = 1.0 / 355687428096000.0; /* 1/17! */
    p = -1.0 / 1307674368000.0 + r2 * p;
    p = 1.0 / 6227020800.0 + r2 * p;
    p = -1.0 / 39916800.0 + r2 * p;
    p = 1.0 / 362880.0 + r2 * p;
    p = -1.0 / 5040.0 + r2 * p;
    p = 1.0 / 120.0 + r2 * p;
    p = -1.0 / 6.0 + r2 * p;
    return r + r * r2 * p;
}

/* cos(r) for |r| <= pi/4 */
static double cos_kernel(double r) {
    double r2 = r * r;
    /* cos r = 1 - r^2/2 + r^4 (1/4! - r^2/6! + r^4/8! - ...) */
    double p = -1.0 / 6402373705728000.0; /* -1/18! */
    p = 1.0 / 20922789888000.0 + r2 * p;
    p = -1.0 / 87178291200.0 + r2 * p;
    p = 1.0 / 479001600.0 + r2 * p;
    p = -1.0 / 3628800.0 + r2 * p;
    p = 1.0 / 40320.0 + r2 * p;
    p = -1.0 / 720.0 + r2 * p;
    p = 1.0 / 24.0 + r2 * p;
    double half_r2 = 0.5 * r2;
    return (1.0 - half_r2) + r2 * r2 * p;
}

/* The reduction above is exact while |k| < 2^20; past that k * PIO2_1 rounds, and past about
 * 1e17 the remainder leaves the kernels' range and the "rotation" is not of unit length (1e24 gave
 * a cosine of 1e119). Angles the API accepts (within CAROM_MAX_MAGNITUDE) keep the reduction
 * above; larger ones, which only continuous collision's sweep of a fast spin over a long step
 * makes, are first brought into [0, 2 pi) by fmod, which is exact (so the same on every
 * platform). A double that large is hundreds of turns apart from its neighbours anyway: any unit
 * rotation is as true as another, but it must be one. */
static double reduce_huge_angle(double angle) {
    return fabs(angle) <= CAROM_MAX_MAGNITUDE ? angle : fmod(angle, 2.0 * CAROM_PI);
}

carom_rot carom_make_rot(double angle) {
    CAROM_ASSERT(isfinite(angle));
    angle = reduce_huge_angle(angle);
    double k = nearbyint(angle * (2.0 / CAROM_PI));
    double r = angle - k * PIO2_1;
    r = r - k * PIO2_2;
    r = r - k * PIO2_3;
    r = r - k * PIO2_3_TAIL;
    double s = sin_kernel(r);
    double c = cos_kernel(r);
    long quadrant = (long)fmod(k, 4.0);
    if (quadrant < 0) {
        quadrant += 4;
    }
    carom_rot q;
    switch (quadrant) {
    case 0: q.c = c; q.s = s; break;
    case 1: q.c = -s; q.s = c; break;
    case 2: q.c = -c; q.s = -s; break;
    default: q.c = s; q.s = -c; break;
    }
    return q;
}

/* atan(u) for |u| <= tan(pi/8) */
static double atan_kernel(double u) {
    double v = u / (1.0 + sqrt(1.0 + u * u)); /* |v| <= 0.1989 */
    double v2 = v * v;
    double p = 1.0 / 23.0;
    p = 1.0 / 21.0 - v2 * p;
    p = 1.0 / 19.0 - v2 * p;
    p = 1.0 / 17.0 - v2 * p;
    p = 1.0 / 15.0 - v2 * p;
    p = 1.0 / 13.0 - v2 * p;
    p = 1.0 / 11.0 - v2 * p;
    p = 1.0 / 9.0 - v2 * p;
    p = 1.0 / 7.0 - v2 * p;
    p = 1.0 / 5.0 - v2 * p;
    p = 1.0 / 3.0 - v2 * p;
    return 2.0 * (v - v * v2 * p);
}

/* atan(t) for 0 <= t <= 1 */
static double atan_unit(double t) {
    static const double TAN_PI_8 = 0.41421356237309504880;
    if (t > TAN_PI_8) {
        return 0.25 * CAROM_PI + atan_kernel((t - 1.0) / (t + 1.0));
    }
    return atan_kernel(t);
}

double carom_atan2(double y, double x) {
    if (isnan(x) || isnan(y)) {
        return x + y;
    }
    double ax = fabs(x);
    double ay = fabs(y);
    double angle;
    if (ax == 0.0 && ay == 0.0) {
        return 0.0;
    } else if (isinf(ax) || isinf(ay)) {
        angle = isinf(ax) && isinf(ay) ? 0.25 * CAROM_PI : (isinf(ay) ? 0.5 * CAROM_PI : 0.0);
    } else if (ay <= ax) {
        angle = atan_unit(ay / ax);
    } else {
        angle = 0.5 * CAROM_PI - atan_unit(ax / ay);
    }
    if (signbit(x)) {
        angle = CAROM_PI - angle;
    }
    return signbit(y) ? -angle : angle;
}

double carom_rot_get_angle(carom_rot q) { return carom_atan2(q.s, q.c); }
