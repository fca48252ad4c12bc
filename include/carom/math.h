/* carom: vectors, rotations, transforms and boxes, all inline.
 *
 * Conventions for the whole engine:
 * - SI units: metres, kilograms, seconds, radians; forces in newtons, torques in N·m.
 * - +y is up; angles turn counter-clockwise; polygons wind counter-clockwise.
 * - A rotation is stored as a cosine/sine pair (carom_rot), so stepping the world needs no
 *   trigonometry: angles are converted at the API boundary by carom's own sine and cosine, which
 *   give the same bits on every platform (libm's do not have to).
 * - All arithmetic is IEEE double; sqrt is the only libm function used here (it is correctly
 *   rounded everywhere), which keeps results bit-identical across compilers and machines. */
#ifndef CAROM_MATH_H
#define CAROM_MATH_H

#include "base.h"
#include <math.h>

typedef struct carom_vec2 {
    double x, y;
} carom_vec2;

/* A rotation: c = cos(angle), s = sin(angle). Unit length. */
typedef struct carom_rot {
    double c, s;
} carom_rot;

/* A rigid transform: rotate by q, then translate by p. */
typedef struct carom_transform {
    carom_vec2 p;
    carom_rot q;
} carom_transform;

/* An axis-aligned box, lower <= upper componentwise. */
typedef struct carom_aabb {
    carom_vec2 lower, upper;
} carom_aabb;

/* pi, for angles in radians: more digits than a double holds, so it reads as the double nearest
 * to pi on every compiler (the same bits as glibc's M_PI, which -std=c11 hides). Use it with
 * carom_make_rot and carom_atan2 rather than libm's trigonometry (docs/determinism.md). */
#define CAROM_PI 3.14159265358979323846

#ifdef __cplusplus
extern "C" {
#endif

/* carom's own sine and cosine of an angle in radians, the same bits on every platform.
 * Measured against glibc (tests/test_math.c): within 1 ulp for |angle| <= 1000, within 2 ulp
 * for |angle| <= 1e6; |c^2 + s^2 - 1| <= 3.1e-16. Any finite angle gives a unit rotation: one
 * beyond CAROM_MAX_MAGNITUDE is first reduced modulo 2 pi (in double arithmetic, exactly). */
CAROM_API carom_rot carom_make_rot(double angle);
/* The angle of a rotation in radians, in [-pi, pi]; carom's own atan2. */
CAROM_API double carom_rot_get_angle(carom_rot q);
/* carom's own atan2(y, x) in radians, in [-pi, pi]; atan2(0, 0) is 0. Measured within 4 ulp of
 * glibc over all quadrants (tests/test_math.c). */
CAROM_API double carom_atan2(double y, double x);

#ifdef __cplusplus
}
#endif

static inline carom_vec2 carom_v2(double x, double y) {
    carom_vec2 v = {x, y};
    return v;
}
static inline carom_vec2 carom_add(carom_vec2 a, carom_vec2 b) { return carom_v2(a.x + b.x, a.y + b.y); }
static inline carom_vec2 carom_sub(carom_vec2 a, carom_vec2 b) { return carom_v2(a.x - b.x, a.y - b.y); }
static inline carom_vec2 carom_neg(carom_vec2 a) { return carom_v2(-a.x, -a.y); }
static inline carom_vec2 carom_scale(double s, carom_vec2 a) { return carom_v2(s * a.x, s * a.y); }
/* a + s * b */
static inline carom_vec2 carom_mul_add(carom_vec2 a, double s, carom_vec2 b) {
    return carom_v2(a.x + s * b.x, a.y + s * b.y);
}
/* a - s * b */
static inline carom_vec2 carom_mul_sub(carom_vec2 a, double s, carom_vec2 b) {
    return carom_v2(a.x - s * b.x, a.y - s * b.y);
}
static inline double carom_dot(carom_vec2 a, carom_vec2 b) { return a.x * b.x + a.y * b.y; }
/* The z component of the 3D cross product of a and b. */
static inline double carom_cross(carom_vec2 a, carom_vec2 b) { return a.x * b.y - a.y * b.x; }
/* cross(v, s) = (s * v.y, -s * v.x) */
static inline carom_vec2 carom_cross_vs(carom_vec2 v, double s) { return carom_v2(s * v.y, -s * v.x); }
/* cross(s, v) = (-s * v.y, s * v.x): the velocity of point v under angular velocity s. */
static inline carom_vec2 carom_cross_sv(double s, carom_vec2 v) { return carom_v2(-s * v.y, s * v.x); }
/* v turned by +90 degrees. */
static inline carom_vec2 carom_left_perp(carom_vec2 v) { return carom_v2(-v.y, v.x); }
/* v turned by -90 degrees. */
static inline carom_vec2 carom_right_perp(carom_vec2 v) { return carom_v2(v.y, -v.x); }
static inline double carom_length_squared(carom_vec2 v) { return v.x * v.x + v.y * v.y; }
static inline double carom_length(carom_vec2 v) { return sqrt(v.x * v.x + v.y * v.y); }
static inline double carom_distance(carom_vec2 a, carom_vec2 b) { return carom_length(carom_sub(b, a)); }
static inline double carom_distance_squared(carom_vec2 a, carom_vec2 b) {
    return carom_length_squared(carom_sub(b, a));
}
/* v scaled to unit length; the zero vector for a vector of length below 1e-300. */
static inline carom_vec2 carom_normalize(carom_vec2 v) {
    double length = carom_length(v);
    if (length < 1e-300) {
        return carom_v2(0.0, 0.0);
    }
    double inv = 1.0 / length;
    return carom_v2(inv * v.x, inv * v.y);
}
static inline carom_vec2 carom_lerp(carom_vec2 a, carom_vec2 b, double t) {
    return carom_v2((1.0 - t) * a.x + t * b.x, (1.0 - t) * a.y + t * b.y);
}
static inline carom_vec2 carom_min_v(carom_vec2 a, carom_vec2 b) {
    return carom_v2(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y);
}
static inline carom_vec2 carom_max_v(carom_vec2 a, carom_vec2 b) {
    return carom_v2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y);
}
static inline int carom_vec2_is_finite(carom_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

static inline carom_rot carom_rot_identity(void) {
    carom_rot q = {1.0, 0.0};
    return q;
}
/* Rotate v by q. */
static inline carom_vec2 carom_rotate(carom_rot q, carom_vec2 v) {
    return carom_v2(q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y);
}
/* Rotate v by the inverse of q. */
static inline carom_vec2 carom_inv_rotate(carom_rot q, carom_vec2 v) {
    return carom_v2(q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y);
}
/* q * r: rotate by r, then by q. */
static inline carom_rot carom_mul_rot(carom_rot q, carom_rot r) {
    carom_rot out = {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s};
    return out;
}
/* inverse(q) * r */
static inline carom_rot carom_inv_mul_rot(carom_rot q, carom_rot r) {
    carom_rot out = {q.c * r.c + q.s * r.s, q.c * r.s - q.s * r.c};
    return out;
}
/* The rotation scaled back to unit length; identity for a zero rotation. */
static inline carom_rot carom_normalize_rot(carom_rot q) {
    double mag = sqrt(q.s * q.s + q.c * q.c);
    double inv = mag > 0.0 ? 1.0 / mag : 0.0;
    carom_rot out = {q.c * inv, q.s * inv};
    if (mag == 0.0) {
        out = carom_rot_identity();
    }
    return out;
}
/* Advance a rotation by a small angle (radians) without trigonometry: first order, then
 * renormalised. Exact enough for the per-substep angles of a step. */
static inline carom_rot carom_integrate_rotation(carom_rot q, double delta_angle) {
    carom_rot q2 = {q.c - delta_angle * q.s, q.s + delta_angle * q.c};
    return carom_normalize_rot(q2);
}

static inline carom_transform carom_transform_identity(void) {
    carom_transform t = {{0.0, 0.0}, {1.0, 0.0}};
    return t;
}
static inline carom_vec2 carom_transform_point(carom_transform t, carom_vec2 p) {
    return carom_add(carom_rotate(t.q, p), t.p);
}
static inline carom_vec2 carom_inv_transform_point(carom_transform t, carom_vec2 p) {
    return carom_inv_rotate(t.q, carom_sub(p, t.p));
}
/* inverse(a) * b: b expressed in a's frame. */
static inline carom_transform carom_inv_mul_transforms(carom_transform a, carom_transform b) {
    carom_transform out;
    out.q = carom_inv_mul_rot(a.q, b.q);
    out.p = carom_inv_rotate(a.q, carom_sub(b.p, a.p));
    return out;
}

static inline int carom_aabb_overlaps(carom_aabb a, carom_aabb b) {
    return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || a.lower.x > b.upper.x ||
             a.lower.y > b.upper.y);
}
/* True when a contains b entirely. */
static inline int carom_aabb_contains(carom_aabb a, carom_aabb b) {
    return a.lower.x <= b.lower.x && a.lower.y <= b.lower.y && b.upper.x <= a.upper.x &&
           b.upper.y <= a.upper.y;
}
static inline carom_aabb carom_aabb_union(carom_aabb a, carom_aabb b) {
    carom_aabb out = {carom_min_v(a.lower, b.lower), carom_max_v(a.upper, b.upper)};
    return out;
}

#endif
