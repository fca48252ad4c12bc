/* Tests for engine/math.c (carom's own sine, cosine and atan2) and the inline helpers of
 * include/carom/math.h.
 *
 * The trig tests measure the worst error against glibc's libm in ulps of the libm value and log
 * it (cr_log_info), then assert a bound a little above the measured maximum, so a regression in
 * the kernels or the argument reduction shows up as a failure rather than as drift. */
#include <carom/carom.h>

#include <criterion/criterion.h>

#include <float.h>
#include <math.h>

/* The spacing of doubles in the binade of x: 2^(e - 52) for x in [2^e, 2^(e + 1)). */
static double ulp_of(double x) {
    x = fabs(x);
    if (x < DBL_MIN) {
        return DBL_TRUE_MIN;
    }
    int exponent = 0;
    frexp(x, &exponent); /* x = m * 2^exponent, m in [0.5, 1) */
    return ldexp(1.0, exponent - 53);
}

/* |got - want| in ulps of want; two zeros (of any sign) agree. */
static double ulp_error(double got, double want) {
    if (got == want) {
        return 0.0;
    }
    return fabs(got - want) / ulp_of(want);
}

static int close_to(double a, double b, double tolerance) {
    return fabs(a - b) <= tolerance;
}

/* |c^2 + s^2 - 1| without the rounding of the sum itself (which alone can reach 4.4e-16):
 * fma(s, s, -1) is s^2 - 1 rounded once, to within 5.6e-17, then c^2 is added exactly. */
static double norm_error(carom_rot q) {
    return fabs(fma(q.c, q.c, fma(q.s, q.s, -1.0)));
}

/* A rotation from libm, so that the helper tests do not depend on carom's own trig. */
static carom_rot libm_rot(double angle) {
    carom_rot q = {cos(angle), sin(angle)};
    return q;
}

/* The worst error seen so far and where. A NaN counts as the worst possible error. */
typedef struct error_record {
    double ulps;
    double at;
    double at2;
} error_record;

static void record_error(error_record* record, double ulps, double at, double at2) {
    if (isnan(ulps)) {
        ulps = INFINITY;
    }
    if (ulps > record->ulps) {
        record->ulps = ulps;
        record->at = at;
        record->at2 = at2;
    }
}

/* Compare carom_make_rot(angle) with libm and fold its errors into the records. */
static void measure_rot(double angle, error_record* cos_error, error_record* sin_error,
                        double* worst_norm_error) {
    carom_rot q = carom_make_rot(angle);
    record_error(cos_error, ulp_error(q.c, cos(angle)), angle, 0.0);
    record_error(sin_error, ulp_error(q.s, sin(angle)), angle, 0.0);
    double error = isnan(norm_error(q)) ? INFINITY : norm_error(q);
    if (error > *worst_norm_error) {
        *worst_norm_error = error;
    }
}

static void measure_atan2(double y, double x, error_record* record) {
    double got = carom_atan2(y, x);
    double want = atan2(y, x);
    double ulps = ulp_error(got, want);
    if (want == 0.0) {
        /* A zero result must be exact and keep libm's sign (atan2(-0, 1) is -0). */
        ulps = (got == 0.0 && signbit(got) == signbit(want)) ? 0.0 : INFINITY;
    }
    record_error(record, ulps, y, x);
}

/* ---- carom_make_rot --------------------------------------------------------------------- */

Test(math, make_rot_matches_libm_within_one_ulp_over_plus_minus_1000_radians) {
    error_record cos_error = {0.0, 0.0, 0.0};
    error_record sin_error = {0.0, 0.0, 0.0};
    double worst_norm_error = 0.0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        double angle = -1000.0 + 2000.0 * (double)i / (double)(n - 1);
        measure_rot(angle, &cos_error, &sin_error, &worst_norm_error);
    }
    /* Special values: zero, quarter and half turns (the reduction's hardest cases near a
     * multiple of pi/2), a tiny angle and the documented limit. */
    /* clang-format off */
    const double special[] = {
        0.0,      -0.0,     0.5 * CAROM_PI, -0.5 * CAROM_PI, CAROM_PI,       -CAROM_PI,
        1.5 * CAROM_PI,     2.0 * CAROM_PI, 0.25 * CAROM_PI, 1e-10,          -1e-10,
        1e-300,   1e6,      -1e6,           999999.5,        355.0,          710.0,
        103993.0, 1e5 * CAROM_PI, 0.785398163397448,
    };
    /* clang-format on */
    for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); ++i) {
        measure_rot(special[i], &cos_error, &sin_error, &worst_norm_error);
    }
    cr_log_info("carom_make_rot vs libm: max cos error %.3f ulp (angle %.17g), max sin error "
                "%.3f ulp (angle %.17g), max |c^2 + s^2 - 1| = %.3g",
                cos_error.ulps, cos_error.at, sin_error.ulps, sin_error.at, worst_norm_error);
    /* Measured: 1 ulp for both. Errors come in whole ulps (half ulps across a power of two), so
     * 1 is the tightest bound that holds and the next step up fails. */
    cr_expect_leq(cos_error.ulps, 1.0, "cos error %.3f ulp at angle %.17g", cos_error.ulps,
                  cos_error.at);
    cr_expect_leq(sin_error.ulps, 1.0, "sin error %.3f ulp at angle %.17g", sin_error.ulps,
                  sin_error.at);
}

Test(math, make_rot_stays_within_two_ulp_of_libm_up_to_a_million_radians) {
    error_record cos_error = {0.0, 0.0, 0.0};
    error_record sin_error = {0.0, 0.0, 0.0};
    double worst_norm_error = 0.0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        /* Irrational step so the samples do not line up with multiples of pi/2. */
        double angle = -1e6 + (2e6 - 1.0) * (double)i / (double)(n - 1) + 0.1 * sqrt(2.0);
        measure_rot(angle, &cos_error, &sin_error, &worst_norm_error);
    }
    cr_log_info("carom_make_rot vs libm on [-1e6, 1e6]: max cos error %.3f ulp (angle %.17g), "
                "max sin error %.3f ulp (angle %.17g)",
                cos_error.ulps, cos_error.at, sin_error.ulps, sin_error.at);
    /* Measured: 2 ulp for both; the two roundings of the Cody-Waite reduction add up to one
     * ulp of the reduced angle at large k. */
    cr_expect_leq(cos_error.ulps, 2.0, "cos error %.3f ulp at angle %.17g", cos_error.ulps,
                  cos_error.at);
    cr_expect_leq(sin_error.ulps, 2.0, "sin error %.3f ulp at angle %.17g", sin_error.ulps,
                  sin_error.at);
}

Test(math, make_rot_is_unit_length_to_4e_minus_16) {
    error_record cos_error = {0.0, 0.0, 0.0};
    error_record sin_error = {0.0, 0.0, 0.0};
    double worst_norm_error = 0.0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        double angle = -1000.0 + 2000.0 * (double)i / (double)(n - 1);
        measure_rot(angle, &cos_error, &sin_error, &worst_norm_error);
    }
    cr_log_info("carom_make_rot: max |c^2 + s^2 - 1| = %.3g", worst_norm_error);
    cr_expect_lt(worst_norm_error, 4e-16, "|c^2 + s^2 - 1| reached %.3g", worst_norm_error);
}

/* Continuous collision sweeps a body turning at up to 2e12 rad/s through a step of up to 1e12 s:
 * angles far beyond what the reduction handles exactly. Each must still give a unit rotation (1e24
 * once gave a cosine of -1.7e119, and 1e100 an infinite one). */
Test(math, make_rot_of_any_finite_angle_is_a_unit_rotation) {
    const double angles[] = {1e13, 1e15, 1e17, 1e18, 1e20, 2e24, 1e30, 1e100, 1e300, DBL_MAX};
    for (int i = 0; i < (int)(sizeof angles / sizeof angles[0]); ++i) {
        for (int sign = -1; sign <= 1; sign += 2) {
            double angle = sign * angles[i];
            carom_rot q = carom_make_rot(angle);
            double norm_error = fabs(q.c * q.c + q.s * q.s - 1.0);
            cr_expect_lt(norm_error, 4e-16, "angle %g: (%g, %g)", angle, q.c, q.s);
        }
    }
}

Test(math, make_rot_of_zero_is_exactly_the_identity) {
    carom_rot q = carom_make_rot(0.0);
    cr_expect_eq(q.c, 1.0);
    cr_expect_eq(q.s, 0.0);
}

Test(math, make_rot_of_half_a_radian_matches_its_known_cosine_and_sine) {
    carom_rot q = carom_make_rot(0.5);
    /* cos(0.5) and sin(0.5) correctly rounded; one ulp is 1.1e-16 and 5.6e-17. */
    cr_expect(close_to(q.c, 0.87758256189037276, 1.2e-16), "cos(0.5) = %.17g", q.c);
    cr_expect(close_to(q.s, 0.47942553860420301, 5.6e-17), "sin(0.5) = %.17g", q.s);
}

Test(math, make_rot_of_a_quarter_turn_points_along_plus_y) {
    carom_rot q = carom_make_rot(0.5 * CAROM_PI);
    /* The double nearest pi/2 is 6.12e-17 short of it, so cos is that, not zero. */
    cr_expect(close_to(q.c, 6.123233995736766e-17, 1e-32), "cos(pi/2) = %.17g", q.c);
    cr_expect_eq(q.s, 1.0);
}

Test(math, make_rot_is_odd_in_sine_and_even_in_cosine) {
    for (int i = 0; i < 1000; ++i) {
        double angle = 0.0137 * i * i;
        carom_rot plus = carom_make_rot(angle);
        carom_rot minus = carom_make_rot(-angle);
        cr_assert_eq(plus.c, minus.c, "angle %.17g", angle);
        cr_assert_eq(plus.s, -minus.s, "angle %.17g", angle);
    }
}

/* ---- carom_atan2 ------------------------------------------------------------------------ */

Test(math, atan2_matches_libm_within_four_ulp_in_every_quadrant_and_on_the_axes) {
    error_record record = {0.0, 0.0, 0.0};
    /* A grid over all four quadrants, including both axes (i or j equal to 200). */
    for (int i = 0; i <= 400; ++i) {
        for (int j = 0; j <= 400; ++j) {
            double y = (i - 200) * 0.0731;
            double x = (j - 200) * 0.0617;
            if (x == 0.0 && y == 0.0) {
                continue;
            }
            measure_atan2(y, x, &record);
        }
    }
    /* Directions all round the circle at several radii. */
    for (int i = 0; i < 20000; ++i) {
        double theta = -CAROM_PI + 2.0 * CAROM_PI * (i + 0.5) / 20000.0;
        const double radii[] = {1e-300, 1e-8, 1.0, 3.7, 1e8, 1e300};
        for (size_t k = 0; k < sizeof(radii) / sizeof(radii[0]); ++k) {
            measure_atan2(radii[k] * sin(theta), radii[k] * cos(theta), &record);
        }
    }
    /* Dense ratios across [0, 1], where the kernels switch at tan(pi/8), in all quadrants. */
    for (int i = 0; i <= 100000; ++i) {
        double t = i / 100000.0;
        measure_atan2(t, 1.0, &record);
        measure_atan2(1.0, t, &record);
        measure_atan2(-t, -1.0, &record);
        measure_atan2(-1.0, t, &record);
    }
    /* Axes, extreme ratios, signed zeros and infinities. */
    /* clang-format off */
    const double values[] = {
        0.0,  -0.0,  1e-310, -1e-310, 1e-300, -1e-300, 0.5,      -0.5,      1.0,
        -1.0, 2.0,   -3.0,   1e300,   -1e300, INFINITY, -INFINITY,
        0.41421356237309503, 0.41421356237309515, /* either side of tan(pi/8) */
    };
    /* clang-format on */
    size_t count = sizeof(values) / sizeof(values[0]);
    for (size_t i = 0; i < count; ++i) {
        for (size_t j = 0; j < count; ++j) {
            if (values[i] == 0.0 && values[j] == 0.0) {
                continue; /* the origin has its own test */
            }
            measure_atan2(values[i], values[j], &record);
        }
    }
    cr_log_info("carom_atan2 vs libm: max error %.3f ulp at (y, x) = (%.17g, %.17g)", record.ulps,
                record.at, record.at2);
    /* Measured: 4 ulp, on the branch pi/4 + atan((t - 1) / (t + 1)) for t just above
     * tan(pi/8), where rounding pi/4, the kernel's half-angle step and the final sum add up;
     * 3 ulp below tan(pi/8), 2 ulp for steep angles, 1 ulp for x < 0. */
    cr_expect_leq(record.ulps, 4.0, "atan2 error %.3f ulp at (y, x) = (%.17g, %.17g)", record.ulps,
                  record.at, record.at2);
}

Test(math, atan2_of_the_origin_is_zero) {
    cr_expect_eq(carom_atan2(0.0, 0.0), 0.0);
    cr_expect_eq(carom_atan2(-0.0, 0.0), 0.0);
    cr_expect_eq(carom_atan2(0.0, -0.0), 0.0);
    cr_expect_eq(carom_atan2(-0.0, -0.0), 0.0);
}

Test(math, atan2_of_nan_is_nan) {
    cr_expect(isnan(carom_atan2(NAN, 1.0)));
    cr_expect(isnan(carom_atan2(1.0, NAN)));
}

Test(math, rot_get_angle_inverts_make_rot_to_1e_minus_15_on_the_open_half_turn) {
    double worst = 0.0;
    double worst_angle = 0.0;
    const int n = 100000;
    for (int i = 0; i <= n + 1; ++i) {
        /* n evenly spread samples, then the doubles just inside -pi and pi. */
        double angle = -CAROM_PI + 2.0 * CAROM_PI * (i + 0.5) / n;
        if (i == n) {
            angle = nextafter(-CAROM_PI, 0.0);
        } else if (i == n + 1) {
            angle = nextafter(CAROM_PI, 0.0);
        }
        double error = fabs(carom_rot_get_angle(carom_make_rot(angle)) - angle);
        if (isnan(error)) {
            error = INFINITY;
        }
        if (error > worst) {
            worst = error;
            worst_angle = angle;
        }
    }
    cr_log_info("carom_rot_get_angle(carom_make_rot(a)) - a: max %.3g at a = %.17g", worst,
                worst_angle);
    cr_expect_leq(worst, 1e-15, "round trip error %.3g at angle %.17g", worst, worst_angle);
}

/* ---- Inline vector and rotation helpers ------------------------------------------------- */

Test(math, rotate_then_inv_rotate_returns_the_vector) {
    for (int i = 0; i < 1000; ++i) {
        carom_rot q = libm_rot(0.0123 * i - 6.0);
        carom_vec2 v = carom_v2(3.0 * sin(0.7 * i), -2.0 + 0.01 * i);
        carom_vec2 back = carom_inv_rotate(q, carom_rotate(q, v));
        cr_assert(close_to(back.x, v.x, 4e-15) && close_to(back.y, v.y, 4e-15),
                  "i = %d: (%.17g, %.17g) came back as (%.17g, %.17g)", i, v.x, v.y, back.x,
                  back.y);
    }
}

Test(math, rotate_turns_counter_clockwise) {
    carom_vec2 v = carom_rotate(libm_rot(0.5 * CAROM_PI), carom_v2(1.0, 0.0));
    cr_expect(close_to(v.x, 0.0, 1e-16) && close_to(v.y, 1.0, 1e-16), "(1, 0) became (%g, %g)", v.x,
              v.y);
}

Test(math, rotate_preserves_length) {
    carom_vec2 v = carom_v2(3.0, -4.0);
    for (int i = 0; i < 1000; ++i) {
        carom_vec2 r = carom_rotate(libm_rot(0.01 * i), v);
        cr_assert(close_to(carom_length(r), 5.0, 4e-15), "|R v| = %.17g", carom_length(r));
    }
}

Test(math, mul_rot_adds_angles) {
    carom_rot q = carom_mul_rot(libm_rot(0.3), libm_rot(1.1));
    carom_rot want = libm_rot(1.4);
    cr_expect(close_to(q.c, want.c, 1e-15) && close_to(q.s, want.s, 1e-15),
              "got (%.17g, %.17g) want (%.17g, %.17g)", q.c, q.s, want.c, want.s);
}

Test(math, inv_mul_rot_subtracts_angles) {
    carom_rot q = carom_inv_mul_rot(libm_rot(0.3), libm_rot(1.1));
    carom_rot want = libm_rot(0.8);
    cr_expect(close_to(q.c, want.c, 1e-15) && close_to(q.s, want.s, 1e-15),
              "got (%.17g, %.17g) want (%.17g, %.17g)", q.c, q.s, want.c, want.s);
}

Test(math, inv_mul_transforms_expresses_b_in_the_frame_of_a) {
    for (int i = 0; i < 200; ++i) {
        carom_transform a = {carom_v2(1.5 - 0.1 * i, 0.3 * i), libm_rot(0.07 * i - 3.0)};
        carom_transform b = {carom_v2(-2.0 + 0.05 * i, 4.0), libm_rot(2.0 - 0.03 * i)};
        carom_transform b_in_a = carom_inv_mul_transforms(a, b);
        carom_vec2 p = carom_v2(0.25 * i - 20.0, 1.75);
        /* a * (inverse(a) * b) = b, applied to a point. */
        carom_vec2 composed = carom_transform_point(a, carom_transform_point(b_in_a, p));
        carom_vec2 direct = carom_transform_point(b, p);
        cr_assert(close_to(composed.x, direct.x, 1e-12) && close_to(composed.y, direct.y, 1e-12),
                  "i = %d: a(b_in_a(p)) = (%.17g, %.17g), b(p) = (%.17g, %.17g)", i, composed.x,
                  composed.y, direct.x, direct.y);
    }
}

Test(math, inv_mul_transforms_of_a_transform_with_itself_is_the_identity) {
    carom_transform a = {carom_v2(12.5, -7.25), libm_rot(2.2)};
    carom_transform identity = carom_inv_mul_transforms(a, a);
    cr_expect(close_to(identity.p.x, 0.0, 1e-15) && close_to(identity.p.y, 0.0, 1e-15),
              "p = (%g, %g)", identity.p.x, identity.p.y);
    cr_expect(close_to(identity.q.c, 1.0, 1e-16) && close_to(identity.q.s, 0.0, 1e-16),
              "q = (%.17g, %.17g)", identity.q.c, identity.q.s);
}

Test(math, inv_transform_point_undoes_transform_point) {
    carom_transform xf = {carom_v2(-3.0, 8.0), libm_rot(-0.9)};
    carom_vec2 p = carom_v2(0.625, -5.5);
    carom_vec2 back = carom_inv_transform_point(xf, carom_transform_point(xf, p));
    cr_expect(close_to(back.x, p.x, 1e-14) && close_to(back.y, p.y, 1e-14), "(%.17g, %.17g)",
              back.x, back.y);
}

Test(math, integrate_rotation_stays_unit_length_after_a_million_small_steps) {
    carom_rot q = carom_rot_identity();
    double worst = 0.0;
    for (int i = 0; i < 1000000; ++i) {
        q = carom_integrate_rotation(q, 1e-5);
        double error = norm_error(q);
        if (isnan(error)) {
            error = INFINITY;
        }
        if (error > worst) {
            worst = error;
        }
    }
    cr_log_info("carom_integrate_rotation: max |c^2 + s^2 - 1| over 1e6 steps = %.3g", worst);
    /* Measured 5.4e-16: each step renormalises, so the error does not grow with the count. */
    cr_expect_lt(worst, 6e-16, "|c^2 + s^2 - 1| reached %.3g", worst);
}

Test(math, integrate_rotation_approximates_the_exact_rotation) {
    /* 1e6 steps of 1e-5 rad = 10 rad. Each first-order step turns by atan(1e-5), which is short
     * of 1e-5 by 1e-15 / 3, so the total falls 3.3e-10 rad short of 10. */
    carom_rot q = carom_rot_identity();
    for (int i = 0; i < 1000000; ++i) {
        q = carom_integrate_rotation(q, 1e-5);
    }
    double lag = 1e6 * (1e-5 - atan(1e-5));
    double angle = 10.0 - lag;
    cr_log_info("carom_integrate_rotation: 1e6 x 1e-5 rad vs exact 10 rad: cos off by %.3g, "
                "sin off by %.3g (first-order lag %.3g rad)",
                q.c - cos(10.0), q.s - sin(10.0), lag);
    cr_expect(close_to(q.c, cos(10.0), 1e-9) && close_to(q.s, sin(10.0), 1e-9),
              "after 10 rad: (%.17g, %.17g), exact (%.17g, %.17g)", q.c, q.s, cos(10.0), sin(10.0));
    /* Apart from that known lag, only rounding remains. */
    cr_expect(close_to(q.c, cos(angle), 1e-11) && close_to(q.s, sin(angle), 1e-11),
              "after 10 rad less the lag: (%.17g, %.17g), expected (%.17g, %.17g)", q.c, q.s,
              cos(angle), sin(angle));
}

Test(math, normalize_rot_of_zero_is_the_identity) {
    carom_rot zero = {0.0, 0.0};
    carom_rot q = carom_normalize_rot(zero);
    cr_expect_eq(q.c, 1.0);
    cr_expect_eq(q.s, 0.0);
}

Test(math, normalize_of_a_tiny_vector_is_zero) {
    carom_vec2 v = carom_normalize(carom_v2(1e-301, 0.0));
    cr_expect_eq(v.x, 0.0);
    cr_expect_eq(v.y, 0.0);
    carom_vec2 w = carom_normalize(carom_v2(3.0, 4.0));
    cr_expect(close_to(w.x, 0.6, 2.5e-16) && close_to(w.y, 0.8, 2.5e-16), "(%.17g, %.17g)", w.x,
              w.y);
}

Test(math, cross_products_follow_the_right_hand_rule) {
    cr_expect_eq(carom_cross(carom_v2(1.0, 0.0), carom_v2(0.0, 1.0)), 1.0);
    carom_vec2 v = carom_cross_sv(2.0, carom_v2(1.0, 0.0)); /* omega z x r */
    cr_expect(v.x == 0.0 && v.y == 2.0, "(%g, %g)", v.x, v.y);
    carom_vec2 w = carom_cross_vs(carom_v2(0.0, 1.0), 3.0); /* r x z */
    cr_expect(w.x == 3.0 && w.y == 0.0, "(%g, %g)", w.x, w.y);
    carom_vec2 left = carom_left_perp(carom_v2(1.0, 2.0));
    carom_vec2 right = carom_right_perp(carom_v2(1.0, 2.0));
    cr_expect(left.x == -2.0 && left.y == 1.0 && right.x == 2.0 && right.y == -1.0);
}

/* ---- Boxes ------------------------------------------------------------------------------ */

static carom_aabb box(double lx, double ly, double ux, double uy) {
    carom_aabb b = {{lx, ly}, {ux, uy}};
    return b;
}

Test(math, aabbs_sharing_an_edge_overlap) {
    cr_expect(carom_aabb_overlaps(box(0, 0, 1, 1), box(1, 0, 2, 1)));
    cr_expect(carom_aabb_overlaps(box(1, 0, 2, 1), box(0, 0, 1, 1)));
    cr_expect(carom_aabb_overlaps(box(0, 0, 1, 1), box(0.5, 1, 0.7, 3)));
}

Test(math, aabbs_sharing_only_a_corner_overlap) {
    cr_expect(carom_aabb_overlaps(box(0, 0, 1, 1), box(1, 1, 2, 2)));
    cr_expect(carom_aabb_overlaps(box(1, 1, 2, 2), box(0, 0, 1, 1)));
}

Test(math, aabbs_a_hair_apart_do_not_overlap) {
    double gap = nextafter(1.0, 2.0);
    cr_expect_not(carom_aabb_overlaps(box(0, 0, 1, 1), box(gap, 0, 2, 1)));
    cr_expect_not(carom_aabb_overlaps(box(0, 0, 1, 1), box(0, gap, 1, 2)));
    cr_expect_not(carom_aabb_overlaps(box(gap, 0, 2, 1), box(0, 0, 1, 1)));
    cr_expect_not(carom_aabb_overlaps(box(0, gap, 1, 2), box(0, 0, 1, 1)));
}

Test(math, aabbs_overlapping_in_only_one_axis_do_not_overlap) {
    cr_expect_not(carom_aabb_overlaps(box(0, 0, 1, 1), box(0.5, 2, 1.5, 3)));
    cr_expect_not(carom_aabb_overlaps(box(0, 0, 1, 1), box(2, 0.5, 3, 1.5)));
}

Test(math, an_aabb_inside_another_overlaps_it) {
    cr_expect(carom_aabb_overlaps(box(0, 0, 10, 10), box(4, 4, 5, 5)));
    cr_expect(carom_aabb_overlaps(box(4, 4, 5, 5), box(0, 0, 10, 10)));
}

Test(math, an_aabb_contains_itself_and_boxes_touching_its_inside) {
    cr_expect(carom_aabb_contains(box(0, 0, 1, 1), box(0, 0, 1, 1)));
    cr_expect(carom_aabb_contains(box(0, 0, 1, 1), box(0, 0.25, 0.5, 1)));
    cr_expect(carom_aabb_contains(box(0, 0, 1, 1), box(0.5, 0.5, 0.5, 0.5)));
}

Test(math, an_aabb_does_not_contain_a_box_poking_out_of_any_side) {
    double out = nextafter(1.0, 2.0);
    double under = nextafter(0.0, -1.0);
    cr_expect_not(carom_aabb_contains(box(0, 0, 1, 1), box(0.2, 0.2, out, 0.8)));
    cr_expect_not(carom_aabb_contains(box(0, 0, 1, 1), box(0.2, 0.2, 0.8, out)));
    cr_expect_not(carom_aabb_contains(box(0, 0, 1, 1), box(under, 0.2, 0.8, 0.8)));
    cr_expect_not(carom_aabb_contains(box(0, 0, 1, 1), box(0.2, under, 0.8, 0.8)));
    cr_expect_not(carom_aabb_contains(box(0.2, 0.2, 0.8, 0.8), box(0, 0, 1, 1)));
}

Test(math, aabb_union_covers_both_boxes) {
    carom_aabb u = carom_aabb_union(box(0, -1, 1, 1), box(-2, 0, 0.5, 3));
    cr_expect(u.lower.x == -2 && u.lower.y == -1 && u.upper.x == 1 && u.upper.y == 3,
              "(%g, %g)-(%g, %g)", u.lower.x, u.lower.y, u.upper.x, u.upper.y);
}
