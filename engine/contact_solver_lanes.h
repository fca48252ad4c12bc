/* The contact kernels, written once for a lane width CAROM_LANES (contact_solver.h has the
 * layout and why the width never changes a result). Included by contact_solver_lanes1.c,
 * ...2.c, ...4.c and ...8.c, each compiled for the instruction set of its width.
 *
 * The arithmetic is the soft-step contact solve of solver.c's header, one constraint per lane:
 * - a point's separation inside a substep is its separation at the start of the step plus the
 *   bodies' motion since, along the fixed normal:
 *     s = s0 + n . (dpB - dpA) + (R(dqB)^T n - n) . rB - (R(dqA)^T n - n) . rA
 * - a speculative gap (s > 0) is closed rigidly within the substep and no further; an overlap is
 *   pushed out softly (bias_rate, mass_scale, impulse_scale), no faster than max_push, and the
 *   relax pass pushes without bias;
 * - accumulated impulses are clamped: the normal impulse stays >= 0, friction within
 *   friction * normal impulse;
 * - a manifold's two points are solved one after the other, the first of them alternating
 *   from substep to substep.
 * No branch depends on a lane's data (choices are masks), which is what makes a lane's bits
 * independent of its neighbours. Padding lanes have zero masses and push nothing. */
#include "contact_solver.h"
#include "lanes.h"
#include "solver.h"
#include "narrow_phase.h"
#include <stddef.h>
#include <stdlib.h>

#define LANES CAROM_LANES

/* The bodies of a group's lanes, as lane values. */
typedef struct body_lanes {
    lane_d vx, vy, w; /* velocity */
    lane_d dpx, dpy;  /* motion of the center this step */
    lane_d dqc, dqs;  /* rotation this step */
    lane_d turn_bits; /* on x86's transposing widths: the states' turn floats as they were read,
                       * written back unchanged with the velocity (store4); unused elsewhere */
} body_lanes;

/* A group's lanes name their bodies' states by where each starts in the states array, counted
 * in doubles (CAROM_STATE_DOUBLES a state; contact_solver.h): a lane's state is then one
 * unsigned load and one scaled address away, where a state index took a sign extension and a
 * shift more, per lane, 16 times a group in every pass. A state's motion this step is in the
 * delta_positions array, two doubles a state: at half that count. */
enum { CAROM_STATE_DOUBLES = (int)(sizeof(carom_body_state) / sizeof(double)) };
_Static_assert(sizeof(carom_body_state) == CAROM_STATE_DOUBLES * sizeof(double),
               "a body state is a whole number of doubles");
_Static_assert(CAROM_STATE_DOUBLES == 2 * (int)(sizeof(carom_vec2) / sizeof(double)),
               "a state's motion starts at half its state's start");

static CAROM_FORCE_INLINE const carom_body_state* state_at(const carom_body_state* states,
                                                           const int32_t* starts, int lane) {
    return (const carom_body_state*)((const double*)states + (uint32_t)starts[lane]);
}

static CAROM_FORCE_INLINE carom_body_state* state_to_write(carom_body_state* states,
                                                           const int32_t* starts, int lane) {
    return (carom_body_state*)((double*)states + (uint32_t)starts[lane]);
}

static CAROM_FORCE_INLINE const double* motion_at(const carom_vec2* delta_positions,
                                                  const int32_t* starts, int lane) {
    return (const double*)delta_positions + ((uint32_t)starts[lane] >> 1);
}

/* Gathering a group's bodies into lane values, and scattering their velocities back, is pure
 * data movement, and the widening of the turn's floats (exact): each width may do it its own way
 * (transposes on x86, lane by lane elsewhere) without touching a result bit. A state is
 * {vx, vy, w, turn.c | turn.s}, half a cache line; the motion {dpx, dpy} is read from
 * delta_positions. Scatter writes only the lanes whose flags allow it: constraints of one colour
 * may share a static or kinematic body, never a body they write. */
#if LANES == 1

static CAROM_FORCE_INLINE body_lanes gather(const carom_body_state* states,
                                            const carom_vec2* delta_positions,
                                            const int32_t* index) {
    const carom_body_state* s = state_at(states, index, 0);
    const double* dp = motion_at(delta_positions, index, 0);
    body_lanes b = {s->linear_velocity.x,
                    s->linear_velocity.y,
                    s->angular_velocity,
                    dp[0],
                    dp[1],
                    s->turn.c,
                    s->turn.s,
                    0.0};
    return b;
}

static CAROM_FORCE_INLINE body_lanes gather_velocities(const carom_body_state* states,
                                                       const int32_t* index) {
    const carom_body_state* s = state_at(states, index, 0);
    body_lanes b = {
        s->linear_velocity.x, s->linear_velocity.y, s->angular_velocity, 0.0, 0.0, 1.0, 0.0, 0.0};
    return b;
}

static CAROM_FORCE_INLINE void scatter(carom_body_state* states, const int32_t* index,
                                       const int32_t* flags, int32_t write_flag,
                                       const body_lanes* b) {
    if (flags[0] & write_flag) {
        carom_body_state* s = state_to_write(states, index, 0);
        s->linear_velocity.x = b->vx;
        s->linear_velocity.y = b->vy;
        s->angular_velocity = b->w;
    }
}

#elif (LANES == 4 && defined(__AVX2__)) || (LANES == 8 && defined(__AVX512F__))
#include <immintrin.h>

/* Four rows of four doubles, transposed into four columns. */
static CAROM_FORCE_INLINE void transpose4(__m256d r0, __m256d r1, __m256d r2, __m256d r3,
                                          __m256d* c0, __m256d* c1, __m256d* c2, __m256d* c3) {
    __m256d t0 = _mm256_unpacklo_pd(r0, r1); /* r0[0] r1[0] r0[2] r1[2] */
    __m256d t1 = _mm256_unpackhi_pd(r0, r1); /* r0[1] r1[1] r0[3] r1[3] */
    __m256d t2 = _mm256_unpacklo_pd(r2, r3);
    __m256d t3 = _mm256_unpackhi_pd(r2, r3);
    *c0 = _mm256_permute2f128_pd(t0, t2, 0x20);
    *c1 = _mm256_permute2f128_pd(t1, t3, 0x20);
    *c2 = _mm256_permute2f128_pd(t0, t2, 0x31);
    *c3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* Four states (index[0..3]) as four columns: vx, vy, w and the turn's float pairs. */
static CAROM_FORCE_INLINE void load4(const carom_body_state* states, const int32_t* index,
                                     __m256d* c) {
    transpose4(_mm256_loadu_pd(&state_at(states, index, 0)->linear_velocity.x),
               _mm256_loadu_pd(&state_at(states, index, 1)->linear_velocity.x),
               _mm256_loadu_pd(&state_at(states, index, 2)->linear_velocity.x),
               _mm256_loadu_pd(&state_at(states, index, 3)->linear_velocity.x), &c[0], &c[1], &c[2],
               &c[3]);
}

/* The turn's float pairs of four lanes widened: c[0] the cosines, c[1] the sines. */
static CAROM_FORCE_INLINE void widen_turns4(__m256d pairs, __m256d* c) {
    __m256 evens_then_odds = _mm256_permutevar8x32_ps(_mm256_castpd_ps(pairs),
                                                      _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    c[0] = _mm256_cvtps_pd(_mm256_castps256_ps128(evens_then_odds));
    c[1] = _mm256_cvtps_pd(_mm256_extractf128_ps(evens_then_odds, 1));
}

/* The motion of four lanes: c[0] the dpx, c[1] the dpy. */
static CAROM_FORCE_INLINE void load_motion4(const carom_vec2* delta_positions, const int32_t* index,
                                            __m256d* c) {
    __m256d lo = _mm256_set_m128d(_mm_loadu_pd(motion_at(delta_positions, index, 1)),
                                  _mm_loadu_pd(motion_at(delta_positions, index, 0)));
    __m256d hi = _mm256_set_m128d(_mm_loadu_pd(motion_at(delta_positions, index, 3)),
                                  _mm_loadu_pd(motion_at(delta_positions, index, 2)));
    /* x0 x2 x1 x3 and y0 y2 y1 y3, put in lane order */
    c[0] = _mm256_permute4x64_pd(_mm256_unpacklo_pd(lo, hi), 0xd8);
    c[1] = _mm256_permute4x64_pd(_mm256_unpackhi_pd(lo, hi), 0xd8);
}

#if LANES == 4
#define COLUMNS(lo, hi) (lo)
#else
#define COLUMNS(lo, hi) _mm512_insertf64x4(_mm512_castpd256_pd512(lo), (hi), 1)
#endif

static CAROM_FORCE_INLINE body_lanes gather_halves(const carom_body_state* states,
                                                   const carom_vec2* delta_positions,
                                                   const int32_t* index, bool motion) {
    __m256d lo[4];
#if LANES == 8
    __m256d hi[4];
#endif
    body_lanes b;
    load4(states, index, lo);
#if LANES == 8
    load4(states, index + 4, hi);
#endif
    b.vx = COLUMNS(lo[0], hi[0]);
    b.vy = COLUMNS(lo[1], hi[1]);
    b.w = COLUMNS(lo[2], hi[2]);
    b.turn_bits = COLUMNS(lo[3], hi[3]);
    if (motion) {
        widen_turns4(lo[3], lo);
#if LANES == 8
        widen_turns4(hi[3], hi);
#endif
        b.dqc = COLUMNS(lo[0], hi[0]);
        b.dqs = COLUMNS(lo[1], hi[1]);
        load_motion4(delta_positions, index, lo);
#if LANES == 8
        load_motion4(delta_positions, index + 4, hi);
#endif
        b.dpx = COLUMNS(lo[0], hi[0]);
        b.dpy = COLUMNS(lo[1], hi[1]);
    } else {
        b.dpx = b.dpy = b.dqs = lane_zero();
        b.dqc = lane_splat(1.0);
    }
    return b;
}

static CAROM_FORCE_INLINE body_lanes gather(const carom_body_state* states,
                                            const carom_vec2* delta_positions,
                                            const int32_t* index) {
    return gather_halves(states, delta_positions, index, true);
}

static CAROM_FORCE_INLINE body_lanes gather_velocities(const carom_body_state* states,
                                                       const int32_t* index) {
    return gather_halves(states, NULL, index, false);
}

/* {vx, vy, w} of four lanes back into their states, each state whole with the turn's floats
 * the gather read: one store a state, where a store of two doubles and one of a third took
 * three instructions more. No contact pass changes the turn (only integrate_positions does,
 * between passes), and the gather read it from the same line: the bits written are the ones
 * there. (Reading them afresh, just before the store, stalled on store forwarding and was once
 * a quarter of the solver's time.) */
static CAROM_FORCE_INLINE void store4(carom_body_state* states, const int32_t* index,
                                      const int32_t* flags, int32_t write_flag, __m256d vx,
                                      __m256d vy, __m256d w, __m256d turn_bits) {
    __m256d r[4];
    transpose4(vx, vy, w, turn_bits, &r[0], &r[1], &r[2], &r[3]);
    for (int l = 0; l < 4; ++l) {
        if (flags[l] & write_flag) {
            _mm256_storeu_pd(&state_to_write(states, index, l)->linear_velocity.x, r[l]);
        }
    }
}

static CAROM_FORCE_INLINE void scatter(carom_body_state* states, const int32_t* index,
                                       const int32_t* flags, int32_t write_flag,
                                       const body_lanes* b) {
#if LANES == 4
    store4(states, index, flags, write_flag, b->vx, b->vy, b->w, b->turn_bits);
#else
    store4(states, index, flags, write_flag, _mm512_castpd512_pd256(b->vx),
           _mm512_castpd512_pd256(b->vy), _mm512_castpd512_pd256(b->w),
           _mm512_castpd512_pd256(b->turn_bits));
    store4(states, index + 4, flags + 4, write_flag, _mm512_extractf64x4_pd(b->vx, 1),
           _mm512_extractf64x4_pd(b->vy, 1), _mm512_extractf64x4_pd(b->w, 1),
           _mm512_extractf64x4_pd(b->turn_bits, 1));
#endif
}
#undef COLUMNS

#else /* any other width: lane by lane */

static CAROM_FORCE_INLINE body_lanes gather_halves(const carom_body_state* states,
                                                   const carom_vec2* delta_positions,
                                                   const int32_t* index, bool motion) {
    /* gathered into arrays, then loaded: gcc 12 took a vector filled element by element for
     * one used uninitialized (-Wmaybe-uninitialized) where a pass solves two groups at once */
    double column[7][LANES];
    for (int l = 0; l < LANES; ++l) {
        const carom_body_state* s = state_at(states, index, l);
        const double* dp = motion ? motion_at(delta_positions, index, l) : NULL;
        column[0][l] = s->linear_velocity.x;
        column[1][l] = s->linear_velocity.y;
        column[2][l] = s->angular_velocity;
        column[3][l] = motion ? dp[0] : 0.0;
        column[4][l] = motion ? dp[1] : 0.0;
        column[5][l] = motion ? (double)s->turn.c : 1.0;
        column[6][l] = motion ? (double)s->turn.s : 0.0;
    }
    body_lanes b = {lane_load(column[0]), lane_load(column[1]), lane_load(column[2]),
                    lane_load(column[3]), lane_load(column[4]), lane_load(column[5]),
                    lane_load(column[6]), lane_zero()};
    return b;
}

static CAROM_FORCE_INLINE body_lanes gather(const carom_body_state* states,
                                            const carom_vec2* delta_positions,
                                            const int32_t* index) {
    return gather_halves(states, delta_positions, index, true);
}

static CAROM_FORCE_INLINE body_lanes gather_velocities(const carom_body_state* states,
                                                       const int32_t* index) {
    return gather_halves(states, NULL, index, false);
}

static CAROM_FORCE_INLINE void scatter(carom_body_state* states, const int32_t* index,
                                       const int32_t* flags, int32_t write_flag,
                                       const body_lanes* b) {
    for (int l = 0; l < LANES; ++l) {
        if (flags[l] & write_flag) {
            carom_body_state* s = state_to_write(states, index, l);
            s->linear_velocity.x = b->vx[l];
            s->linear_velocity.y = b->vy[l];
            s->angular_velocity = b->w[l];
        }
    }
}
#endif

/* A group viewed as lane values, with its cold group. */
typedef struct group_view {
    unsigned char* base; /* the group's first byte */
    int32_t* ints;
    const double* cold;
} group_view;

static CAROM_FORCE_INLINE group_view view(void* group, const double* cold) {
    group_view g = {group, carom_contact_ints(group, LANES), cold};
    return g;
}

/* A double field (contact_solver.h's carom_contact_field) as lane values, and back. */
static CAROM_FORCE_INLINE lane_d get(group_view g, int field) {
    return lane_load((const double*)(g.base + carom_contact_field_offset(LANES, field)));
}

static CAROM_FORCE_INLINE void put(group_view g, int field, lane_d value) {
    lane_store((double*)(g.base + carom_contact_field_offset(LANES, field)), value);
}

/* A float field (carom_contact_float_field) widened to lane values, and back rounded. */
static CAROM_FORCE_INLINE lane_d get_float(group_view g, int field) {
    return lane_load_float((const float*)(g.base + carom_contact_float_offset(LANES, field)));
}

static CAROM_FORCE_INLINE void put_float(group_view g, int field, lane_d value) {
    lane_store_float((float*)(g.base + carom_contact_float_offset(LANES, field)), value);
}

/* A cold field as lane values. */
static CAROM_FORCE_INLINE lane_d get_cold(group_view g, int field) {
    return lane_load(g.cold + field * LANES);
}

/* The point's field: point 0 or 1. */
#define PF(point, field) carom_contact_point_field((field), (point))
/* The point's float field. */
#define PFF(point, field) carom_contact_point_float((field), (point))

typedef struct constraint_lanes {
    lane_d nx, ny;
    lane_d inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b;
} constraint_lanes;

static CAROM_FORCE_INLINE constraint_lanes load_constraint(group_view g) {
    constraint_lanes c = {get_float(g, CAROM_CFF_NORMAL_X), get_float(g, CAROM_CFF_NORMAL_Y),
                          get(g, CAROM_CF_INV_MASS_A),      get(g, CAROM_CF_INV_INERTIA_A),
                          get(g, CAROM_CF_INV_MASS_B),      get(g, CAROM_CF_INV_INERTIA_B)};
    return c;
}

typedef struct point_lanes {
    lane_d rax, ray, rbx, rby;
} point_lanes;

static CAROM_FORCE_INLINE point_lanes load_point(group_view g, int point) {
    point_lanes p = {get_float(g, PFF(point, CAROM_CFF_ANCHOR_A_X)),
                     get_float(g, PFF(point, CAROM_CFF_ANCHOR_A_Y)),
                     get_float(g, PFF(point, CAROM_CFF_ANCHOR_B_X)),
                     get_float(g, PFF(point, CAROM_CFF_ANCHOR_B_Y))};
    return p;
}

/* Apply the impulse (px, py) at the point: -P on A, +P on B. */
static CAROM_FORCE_INLINE void apply(body_lanes* a, body_lanes* b, const constraint_lanes* c,
                                     const point_lanes* p, lane_d px, lane_d py) {
    a->vx = a->vx - c->inv_mass_a * px;
    a->vy = a->vy - c->inv_mass_a * py;
    a->w = a->w - c->inv_inertia_a * (p->rax * py - p->ray * px);
    b->vx = b->vx + c->inv_mass_b * px;
    b->vy = b->vy + c->inv_mass_b * py;
    b->w = b->w + c->inv_inertia_b * (p->rbx * py - p->rby * px);
}

/* apply, in the lanes of `mask` only: the other lanes' velocities keep their exact bits (an
 * impulse of zero could still turn a -0 velocity into +0). */
static CAROM_FORCE_INLINE void apply_where(lane_mask mask, body_lanes* a, body_lanes* b,
                                           const constraint_lanes* c, const point_lanes* p,
                                           lane_d px, lane_d py) {
    body_lanes na = *a, nb = *b;
    apply(&na, &nb, c, p, px, py);
    a->vx = lane_select(mask, na.vx, a->vx);
    a->vy = lane_select(mask, na.vy, a->vy);
    a->w = lane_select(mask, na.w, a->w);
    b->vx = lane_select(mask, nb.vx, b->vx);
    b->vy = lane_select(mask, nb.vy, b->vy);
    b->w = lane_select(mask, nb.w, b->w);
}

/* The lanes whose constraint has a second point with a mass (a missing one has none). Groups
 * of one-point constraints (circles: all of rain) skip the second point's work, and every other
 * group applies it only where it exists, so that the bits of a lane never depend on its
 * neighbours (the lane-width equality test). The warm start finds them in the flags
 * (CAROM_CF_SECOND), so that it need not read the masses; the passes that read the masses
 * anyway compare one, which is cheaper than taking a bit out of the flags. */
static CAROM_FORCE_INLINE lane_mask second_points(group_view g) {
    return lane_flag_mask(lane_load_i32(g.ints + CAROM_CI_FLAGS * LANES), CAROM_CF_SECOND);
}

static CAROM_FORCE_INLINE lane_mask second_points_by_mass(group_view g) {
    return lane_greater(get(g, PF(1, CAROM_CF_NORMAL_MASS)), lane_zero());
}

/* Velocity of the point on B relative to the point on A, along (dx, dy). */
static CAROM_FORCE_INLINE lane_d relative_speed(const body_lanes* a, const body_lanes* b,
                                                const point_lanes* p, lane_d dx, lane_d dy) {
    lane_d vax = a->vx - a->w * p->ray;
    lane_d vay = a->vy + a->w * p->rax;
    lane_d vbx = b->vx - b->w * p->rby;
    lane_d vby = b->vy + b->w * p->rbx;
    return (vbx - vax) * dx + (vby - vay) * dy;
}

static CAROM_FORCE_INLINE void finish_group(group_view g, double* cold);

static void warm_start_groups(void* groups, double* colds, int count, carom_body_state* states,
                              bool finish) {
    char* bytes = groups;
    size_t stride = carom_contact_group_size(LANES);
    for (int i = 0; i < count; ++i) {
        group_view g = view(bytes + (size_t)i * stride, NULL);
        if (finish && lane_any(lane_flag_mask(lane_load_i32(g.ints + CAROM_CI_FLAGS * LANES),
                                              CAROM_CF_FILLED))) {
            finish_group(g, colds + (size_t)i * CAROM_CC_COUNT * LANES);
        }
        body_lanes a = gather_velocities(states, g.ints + CAROM_CI_STATE_A * LANES);
        body_lanes b = gather_velocities(states, g.ints + CAROM_CI_STATE_B * LANES);
        constraint_lanes c = load_constraint(g);
        lane_d tx = c.ny;
        lane_d ty = -c.nx;
        lane_mask second = second_points(g);
        int points = lane_any(second) ? 2 : 1;
        for (int j = 0; j < points; ++j) {
            point_lanes p = load_point(g, j);
            lane_d normal_impulse = get(g, PF(j, CAROM_CF_NORMAL_IMPULSE));
            lane_d tangent_impulse = get(g, PF(j, CAROM_CF_TANGENT_IMPULSE));
            lane_d px = normal_impulse * c.nx + tangent_impulse * tx;
            lane_d py = normal_impulse * c.ny + tangent_impulse * ty;
            if (j == 0 || lane_all(second)) {
                apply(&a, &b, &c, &p, px, py);
            } else {
                apply_where(second, &a, &b, &c, &p, px, py);
            }
        }
        scatter(states, g.ints + CAROM_CI_STATE_A * LANES, g.ints + CAROM_CI_FLAGS * LANES,
                CAROM_CF_WRITE_A, &a);
        scatter(states, g.ints + CAROM_CI_STATE_B * LANES, g.ints + CAROM_CI_FLAGS * LANES,
                CAROM_CF_WRITE_B, &b);
    }
}

/* How a point is driven this pass (solver.c's header). */
typedef struct drive_lanes {
    lane_d bias, mass_scale, impulse_scale;
} drive_lanes;

/* The springs of a group's lanes: stiffer against a body that does not move (solver.c). */
typedef struct spring_lanes {
    lane_d bias_rate, mass_scale, impulse_scale;
} spring_lanes;

static CAROM_FORCE_INLINE spring_lanes springs(const constraint_lanes* c,
                                               const carom_solve_settings* settings) {
    lane_mask fixed =
        lane_equal(c->inv_mass_a, lane_zero()) | lane_equal(c->inv_mass_b, lane_zero());
    const carom_softness* soft = &settings->soft;
    const carom_softness* fixed_soft = &settings->static_soft;
    spring_lanes s = {
        lane_select(fixed, lane_splat(fixed_soft->bias_rate), lane_splat(soft->bias_rate)),
        lane_select(fixed, lane_splat(fixed_soft->mass_scale), lane_splat(soft->mass_scale)),
        lane_select(fixed, lane_splat(fixed_soft->impulse_scale), lane_splat(soft->impulse_scale))};
    return s;
}

static CAROM_FORCE_INLINE drive_lanes drive(lane_d separation, const spring_lanes* spring,
                                            const carom_solve_settings* settings, bool use_bias) {
    drive_lanes d;
    lane_mask speculative = lane_greater(separation, lane_zero());
    lane_d speculative_bias = separation * settings->inv_h;
    if (use_bias) {
        lane_d penetration = lane_min(separation + settings->slop, lane_zero());
        lane_d soft_bias =
            lane_max(spring->bias_rate * penetration, lane_splat(-settings->max_push));
        d.bias = lane_select(speculative, speculative_bias, soft_bias);
        d.mass_scale = lane_select(speculative, lane_splat(1.0), spring->mass_scale);
        d.impulse_scale = lane_select(speculative, lane_zero(), spring->impulse_scale);
    } else {
        d.bias = lane_select(speculative, speculative_bias, lane_zero());
        d.mass_scale = lane_splat(1.0);
        d.impulse_scale = lane_zero();
    }
    return d;
}

/* One point's clamped normal impulse from the current velocities; applies it, updates the
 * accumulated impulse and sets `pushed` where it is positive, in the lanes of `mask` only unless
 * everywhere (apply_where). */
static CAROM_FORCE_INLINE void solve_point_in(lane_mask mask, bool everywhere, body_lanes* a,
                                              body_lanes* b, const constraint_lanes* c,
                                              const point_lanes* p, const drive_lanes* d,
                                              lane_d normal_mass, lane_d* accumulated,
                                              lane_mask* pushed) {
    lane_d vn = relative_speed(a, b, p, c->nx, c->ny);
    lane_d impulse =
        -normal_mass * d->mass_scale * (vn + d->bias) - d->impulse_scale * *accumulated;
    lane_d total = lane_max(*accumulated + impulse, lane_zero());
    impulse = total - *accumulated;
    if (everywhere) {
        *accumulated = total;
        *pushed = *pushed | lane_greater(impulse, lane_zero());
        apply(a, b, c, p, impulse * c->nx, impulse * c->ny);
    } else {
        *accumulated = lane_select(mask, total, *accumulated);
        *pushed = *pushed | (mask & lane_greater(impulse, lane_zero()));
        apply_where(mask, a, b, c, p, impulse * c->nx, impulse * c->ny);
    }
}

static CAROM_FORCE_INLINE void solve_point(body_lanes* a, body_lanes* b, const constraint_lanes* c,
                                           const point_lanes* p, const drive_lanes* d,
                                           lane_d normal_mass, lane_d* accumulated,
                                           lane_mask* pushed) {
    solve_point_in(lane_zero_mask(), true, a, b, c, p, d, normal_mass, accumulated, pushed);
}

/* solve_point in the lanes of `mask` only (apply_where). */
static CAROM_FORCE_INLINE void solve_point_where(lane_mask mask, body_lanes* a, body_lanes* b,
                                                 const constraint_lanes* c, const point_lanes* p,
                                                 const drive_lanes* d, lane_d normal_mass,
                                                 lane_d* accumulated, lane_mask* pushed) {
    solve_point_in(mask, false, a, b, c, p, d, normal_mass, accumulated, pushed);
}

/* Friction at a point, within the cone of its normal impulse; in the lanes of `mask` only
 * unless everywhere (apply_where). */
static CAROM_FORCE_INLINE void solve_friction_in(lane_mask mask, bool everywhere, body_lanes* a,
                                                 body_lanes* b, const constraint_lanes* c,
                                                 const point_lanes* p, lane_d friction,
                                                 lane_d tangent_mass, lane_d normal_impulse,
                                                 lane_d* tangent_impulse) {
    lane_d tx = c->ny;
    lane_d ty = -c->nx;
    lane_d vt = relative_speed(a, b, p, tx, ty);
    lane_d impulse = -tangent_mass * vt;
    lane_d max_friction = friction * normal_impulse;
    lane_d total = *tangent_impulse + impulse;
    total = lane_max(-max_friction, lane_min(total, max_friction));
    impulse = total - *tangent_impulse;
    if (everywhere) {
        *tangent_impulse = total;
        apply(a, b, c, p, impulse * tx, impulse * ty);
    } else {
        *tangent_impulse = lane_select(mask, total, *tangent_impulse);
        apply_where(mask, a, b, c, p, impulse * tx, impulse * ty);
    }
}

static CAROM_FORCE_INLINE void solve_friction(body_lanes* a, body_lanes* b,
                                              const constraint_lanes* c, const point_lanes* p,
                                              lane_d friction, lane_d tangent_mass,
                                              lane_d normal_impulse, lane_d* tangent_impulse) {
    solve_friction_in(lane_zero_mask(), true, a, b, c, p, friction, tangent_mass, normal_impulse,
                      tangent_impulse);
}

/* The group's fields read afresh. The passes below read a field where it is used, not once at
 * the top: x86 has 16 vector registers, and a group's constraint, points, drives and bodies held
 * all at once were most of the solve's instructions spilled to the stack and read back (a
 * quarter of them). A field read twice is one load, often folded into the operation that uses
 * it; but the compiler merges two reads of the same address into one value kept alive in
 * between, unless it no longer knows the address: this hides it (an empty asm that may change
 * the pointer, and costs no instruction). Only where registers are few; elsewhere (aarch64 has
 * 32, WebAssembly none) it is the view itself. Never a result bit: the same loads, operations
 * and order. */
static CAROM_FORCE_INLINE group_view reread(group_view g) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __asm__ volatile("" : "+r"(g.base));
#endif
    return g;
}

/* The constraint's normal and masses, read afresh (reread); *g becomes the view they were read
 * through, so that the point fields read next are fresh too. */
static CAROM_FORCE_INLINE constraint_lanes reread_constraint(group_view* g) {
    *g = reread(*g);
    return load_constraint(*g);
}

/* Point `k` in solving order (k = 0 first): point 1 - k in the lanes of `swap`, else point k. */
static CAROM_FORCE_INLINE point_lanes ordered_point(group_view g, lane_mask swap, int k) {
    point_lanes own = load_point(g, k), other = load_point(g, 1 - k);
    point_lanes p = {lane_select(swap, other.rax, own.rax), lane_select(swap, other.ray, own.ray),
                     lane_select(swap, other.rbx, own.rbx), lane_select(swap, other.rby, own.rby)};
    return p;
}

/* A point field of point `k` in solving order. */
static CAROM_FORCE_INLINE lane_d ordered_field(group_view g, lane_mask swap, int field, int k) {
    return lane_select(swap, get(g, PF(1 - k, field)), get(g, PF(k, field)));
}

/* What a group's pass knows of its two points before it solves them: their separations and
 * drives, and the lanes that solve point 1 first. */
typedef struct separation_lanes {
    lane_d s[2];
    drive_lanes d[2];
    lane_mask swap;
} separation_lanes;

/* The two normal impulses one after the other, each clamped, the deeper point first (exact
 * ties, as in a symmetric stack, alternate with `flip` from substep to substep): solved in a
 * fixed order, the point solved second always had the last word, and a symmetric stack drifted
 * sideways; deeper first also keeps a spinning box's leading corner out of a wall. Lanes whose
 * order is the other way round read their two points the other way round (ordered_point). The
 * accumulated impulses are read from the group; the new ones and where they pushed come out in
 * normal and pushed, in the points' own order.
 *
 * Point k (0 first) in solving order: its accumulated impulse and where it pushed come out in
 * solving order too (unorder puts them back). */
static CAROM_FORCE_INLINE void solve_ordered_point(group_view g, body_lanes* a, body_lanes* b,
                                                   const separation_lanes* sep, int k,
                                                   lane_mask second, bool all_second,
                                                   lane_d* accumulated, lane_mask* top) {
    constraint_lanes c = reread_constraint(&g);
    point_lanes q = ordered_point(g, sep->swap, k);
    const drive_lanes* own = &sep->d[k];
    const drive_lanes* other = &sep->d[1 - k];
    drive_lanes d = {lane_select(sep->swap, other->bias, own->bias),
                     lane_select(sep->swap, other->mass_scale, own->mass_scale),
                     lane_select(sep->swap, other->impulse_scale, own->impulse_scale)};
    lane_d mass = ordered_field(g, sep->swap, CAROM_CF_NORMAL_MASS, k);
    *accumulated = ordered_field(g, sep->swap, CAROM_CF_NORMAL_IMPULSE, k);
    *top = lane_zero_mask(); /* nothing pushed yet in this pass */
    if (k == 0 || all_second) {
        solve_point(a, b, &c, &q, &d, mass, accumulated, top);
    } else {
        solve_point_where(second, a, b, &c, &q, &d, mass, accumulated, top);
    }
}

static CAROM_FORCE_INLINE void unorder(const separation_lanes* sep, const lane_d* accumulated,
                                       const lane_mask* top, lane_d* normal, lane_mask* pushed) {
    for (int j = 0; j < 2; ++j) {
        normal[j] = lane_select(sep->swap, accumulated[1 - j], accumulated[j]);
        pushed[j] = lane_select_mask(sep->swap, top[1 - j], top[j]);
    }
}

static CAROM_FORCE_INLINE void solve_normal_ordered(group_view g, body_lanes* a, body_lanes* b,
                                                    const separation_lanes* sep, lane_d* normal,
                                                    lane_mask* pushed, lane_mask second,
                                                    bool all_second) {
    lane_d accumulated[2] = {lane_zero(), lane_zero()}; /* all written: gcc cannot tell */
    lane_mask top[2] = {lane_zero_mask(), lane_zero_mask()};
    for (int k = 0; k < 2; ++k) {
        solve_ordered_point(g, a, b, sep, k, second, all_second, &accumulated[k], &top[k]);
    }
    unorder(sep, accumulated, top, normal, pushed);
}

/* Where a manifold's two points are alike, both normal impulses come at once from the 2x2
 * block (Catto's block solver, Box2D 2.x), if that pushes at both points; elsewhere, and where
 * the block would pull, the points are solved in order (solve_normal_ordered). Alike means:
 * - both speculative (closing a gap, solved rigidly): one after the other, the first point of an
 *   impact would stop the whole closing speed and turn it into spin (two cars meeting head on at
 *   100 m/s each went on spinning apart at 2 m/s instead of stopping);
 * - exactly as deep and driven the same way, as the two corners of a box resting square on
 *   another: a block keeps a symmetric stack exactly symmetric (every x and angle stays 0).
 * Solving unlike penetrating points as a block too made the 5,050-box pyramid creep 9 cm in 8 s
 * and sag 0.85 m, against 1.4 cm and 0.55 m in order. The accumulated impulses are read from
 * the group; the new ones and where they pushed come out in normal and pushed. Which lanes are
 * alike is worked out first: */
static CAROM_FORCE_INLINE lane_mask alike_lanes(group_view g, const separation_lanes* sep) {
    const drive_lanes* d = sep->d;
    return lane_flag_mask(lane_load_i32(g.ints + CAROM_CI_FLAGS * LANES), CAROM_CF_BLOCK) &
           ((lane_greater(sep->s[0], lane_zero()) & lane_greater(sep->s[1], lane_zero())) |
            (lane_equal(sep->s[0], sep->s[1]) & lane_equal(d[0].mass_scale, d[1].mass_scale)));
}

/* The two normal impulses of a group whose lanes of `alike` (alike_lanes) may take the block. */
static CAROM_FORCE_INLINE void solve_normal_block(group_view g, body_lanes* a, body_lanes* b,
                                                  const separation_lanes* sep, lane_mask alike,
                                                  lane_d* normal, lane_mask* pushed,
                                                  lane_mask second, bool all_second) {
    const drive_lanes* d = sep->d;
    /* Most groups take one way in every lane (piles: in order; symmetric stacks: the block):
     * only the way taken is worked out, with the same bits as the mixed case below. In a pile
     * no lane's points are alike, and the block's impulses are not even worked out: that was a
     * tenth of the pass. */
    if (!lane_any(alike)) {
        solve_normal_ordered(g, a, b, sep, normal, pushed, second, all_second);
        return;
    }
    constraint_lanes c = reread_constraint(&g);
    point_lanes p[2] = {load_point(g, 0), load_point(g, 1)};
    lane_d accumulated[2] = {get(g, PF(0, CAROM_CF_NORMAL_IMPULSE)),
                             get(g, PF(1, CAROM_CF_NORMAL_IMPULSE))};
    lane_d rhs1 = relative_speed(a, b, &p[0], c.nx, c.ny) + d[0].bias;
    lane_d rhs2 = relative_speed(a, b, &p[1], c.nx, c.ny) + d[1].bias;
    lane_d k11 = get_cold(g, CAROM_CC_INV_K11);
    lane_d k12 = get_cold(g, CAROM_CC_INV_K12);
    lane_d k22 = get_cold(g, CAROM_CC_INV_K22);
    lane_d ms = d[0].mass_scale;
    lane_d is = d[0].impulse_scale;
    lane_d block[2] = {-ms * (k11 * rhs1 + k12 * rhs2) - is * accumulated[0],
                       -ms * (k12 * rhs1 + k22 * rhs2) - is * accumulated[1]};
    lane_mask use_block = alike & ~lane_greater(lane_zero(), accumulated[0] + block[0]) &
                          ~lane_greater(lane_zero(), accumulated[1] + block[1]);
    if (!lane_any(use_block)) {
        solve_normal_ordered(g, a, b, sep, normal, pushed, second, all_second);
        return;
    }
    if (lane_all(use_block)) {
        for (int j = 0; j < 2; ++j) {
            apply(a, b, &c, &p[j], block[j] * c.nx, block[j] * c.ny);
            normal[j] = accumulated[j] + block[j];
            pushed[j] = lane_greater(block[j], lane_zero());
        }
        return;
    }
    body_lanes block_a = *a, block_b = *b;
    for (int j = 0; j < 2; ++j) {
        apply(&block_a, &block_b, &c, &p[j], block[j] * c.nx, block[j] * c.ny);
    }
    lane_d single[2];
    lane_mask single_pushed[2];
    solve_normal_ordered(g, a, b, sep, single, single_pushed, second, all_second);
    a->vx = lane_select(use_block, block_a.vx, a->vx);
    a->vy = lane_select(use_block, block_a.vy, a->vy);
    a->w = lane_select(use_block, block_a.w, a->w);
    b->vx = lane_select(use_block, block_b.vx, b->vx);
    b->vy = lane_select(use_block, block_b.vy, b->vy);
    b->w = lane_select(use_block, block_b.w, b->w);
    for (int j = 0; j < 2; ++j) {
        normal[j] = lane_select(use_block, accumulated[j] + block[j], single[j]);
        pushed[j] =
            lane_select_mask(use_block, lane_greater(block[j], lane_zero()), single_pushed[j]);
    }
}

/* One pass over a group whose constraints all have one point (circles): the second point's
 * work left out, with the same bits as solve_group gives such a lane. */
static CAROM_FORCE_INLINE void solve_single_points(group_view g, body_lanes* a, body_lanes* b,
                                                   lane_d separation,
                                                   const carom_solve_settings* settings,
                                                   bool use_bias, lane_mask* pushed) {
    constraint_lanes c = reread_constraint(&g);
    point_lanes p = load_point(g, 0);
    spring_lanes spring = springs(&c, settings);
    drive_lanes d = drive(separation, &spring, settings, use_bias);
    lane_d normal = get(g, PF(0, CAROM_CF_NORMAL_IMPULSE));
    solve_point(a, b, &c, &p, &d, get(g, PF(0, CAROM_CF_NORMAL_MASS)), &normal, pushed);
    put(g, PF(0, CAROM_CF_NORMAL_IMPULSE), normal);
    c = reread_constraint(&g);
    p = load_point(g, 0);
    lane_d tangent_impulse = get(g, PF(0, CAROM_CF_TANGENT_IMPULSE));
    solve_friction(a, b, &c, &p, get_float(g, CAROM_CFF_FRICTION),
                   get_float(g, PFF(0, CAROM_CFF_TANGENT_MASS)), normal, &tangent_impulse);
    put(g, PF(0, CAROM_CF_TANGENT_IMPULSE), tangent_impulse);
}

/* The separations of a group's points now: at the start of the step plus how far the bodies'
 * motion since moved the points along n. Only this reads the bodies' motion. */
static CAROM_FORCE_INLINE void separations(group_view g, const body_lanes* a, const body_lanes* b,
                                           int points, lane_d* separation) {
    lane_d nx = get_float(g, CAROM_CFF_NORMAL_X), ny = get_float(g, CAROM_CFF_NORMAL_Y);
    lane_d shift = nx * (b->dpx - a->dpx) + ny * (b->dpy - a->dpy);
    lane_d turn_ax = (a->dqc * nx + a->dqs * ny) - nx;
    lane_d turn_ay = (-a->dqs * nx + a->dqc * ny) - ny;
    lane_d turn_bx = (b->dqc * nx + b->dqs * ny) - nx;
    lane_d turn_by = (-b->dqs * nx + b->dqc * ny) - ny;
    for (int j = 0; j < points; ++j) {
        point_lanes p = load_point(g, j);
        separation[j] = get_float(g, PFF(j, CAROM_CFF_BASE_SEPARATION)) + shift +
                        (turn_bx * p.rbx + turn_by * p.rby) - (turn_ax * p.rax + turn_ay * p.ray);
    }
}

/* A pass over a group of two-point constraints, in stages (all_second is a constant where they
 * are inlined, so that groups whose constraints all have two points, piles of boxes, run
 * without a mask). It begins with the group's bodies and its points' separations, order and
 * drives. */
static CAROM_FORCE_INLINE void begin_pass(group_view g, carom_body_state* states,
                                          const carom_vec2* delta_positions,
                                          const carom_solve_settings* settings, bool use_bias,
                                          lane_mask second, bool all_second, body_lanes* a,
                                          body_lanes* b, separation_lanes* sep) {
    *a = gather(states, delta_positions, g.ints + CAROM_CI_STATE_A * LANES);
    *b = gather(states, delta_positions, g.ints + CAROM_CI_STATE_B * LANES);
    separations(g, a, b, 2, sep->s);
    lane_mask tie_break = settings->flip ? ~(lane_mask){0} : (lane_mask){0};
    sep->swap = lane_greater(sep->s[0], sep->s[1]) | (lane_equal(sep->s[0], sep->s[1]) & tie_break);
    if (!all_second) {
        sep->swap &= second; /* a lane with one point keeps it first, its missing second left
                              * out */
    }
    constraint_lanes spring_of = reread_constraint(&g); /* its masses pick the spring */
    spring_lanes spring = springs(&spring_of, settings);
    for (int j = 0; j < 2; ++j) {
        sep->d[j] = drive(sep->s[j], &spring, settings, use_bias);
    }
}

/* Friction at point j, within the cone of the normal impulse just found (and stored). */
static CAROM_FORCE_INLINE void solve_friction_point(group_view g, body_lanes* a, body_lanes* b,
                                                    int j, lane_mask second, bool all_second) {
    constraint_lanes c = reread_constraint(&g);
    point_lanes p = load_point(g, j);
    lane_d friction = get_float(g, CAROM_CFF_FRICTION);
    lane_d normal_impulse = get(g, PF(j, CAROM_CF_NORMAL_IMPULSE));
    lane_d tangent_impulse = get(g, PF(j, CAROM_CF_TANGENT_IMPULSE));
    lane_d tangent_mass = get_float(g, PFF(j, CAROM_CFF_TANGENT_MASS));
    if (j == 0 || all_second) {
        solve_friction(a, b, &c, &p, friction, tangent_mass, normal_impulse, &tangent_impulse);
    } else {
        solve_friction_in(second, false, a, b, &c, &p, friction, tangent_mass, normal_impulse,
                          &tangent_impulse);
    }
    put(g, PF(j, CAROM_CF_TANGENT_IMPULSE), tangent_impulse);
}

/* A pass ends with where the points pushed in the group's flags and the bodies written back.
 * The flags are stored only where a point pushed for the first time this step: after a substep
 * or two they no longer change, and a line left clean is one line fewer written back to memory
 * per group and pass (a pile's groups stream from memory). */
static CAROM_FORCE_INLINE void end_pass(group_view g, carom_body_state* states,
                                        const body_lanes* a, const body_lanes* b,
                                        const lane_mask* pushed) {
    int32_t* flags = g.ints + CAROM_CI_FLAGS * LANES;
    lane_i32 old_flags = lane_load_i32(flags);
    lane_i32 new_flags =
        old_flags | lane_flag_bits2(pushed[0], CAROM_CF_PUSHED1, pushed[1], CAROM_CF_PUSHED2);
    if (lane_i32_differ(old_flags, new_flags)) {
        lane_store_i32(flags, new_flags);
    }
    scatter(states, g.ints + CAROM_CI_STATE_A * LANES, flags, CAROM_CF_WRITE_A, a);
    scatter(states, g.ints + CAROM_CI_STATE_B * LANES, flags, CAROM_CF_WRITE_B, b);
}

static CAROM_FORCE_INLINE void put_normals(group_view g, const lane_d* normal) {
    put(g, PF(0, CAROM_CF_NORMAL_IMPULSE), normal[0]);
    put(g, PF(1, CAROM_CF_NORMAL_IMPULSE), normal[1]);
}

/* One pass over a group. */
static CAROM_FORCE_INLINE void solve_group_of(group_view g, carom_body_state* states,
                                              const carom_vec2* delta_positions,
                                              const carom_solve_settings* settings, bool use_bias,
                                              int points, lane_mask second, bool all_second) {
    body_lanes a, b;
    lane_mask pushed[2] = {lane_zero_mask(), lane_zero_mask()}; /* in this pass */
    if (points == 1) {
        a = gather(states, delta_positions, g.ints + CAROM_CI_STATE_A * LANES);
        b = gather(states, delta_positions, g.ints + CAROM_CI_STATE_B * LANES);
        lane_d separation;
        separations(g, &a, &b, 1, &separation);
        solve_single_points(g, &a, &b, separation, settings, use_bias, &pushed[0]);
    } else {
        separation_lanes sep;
        begin_pass(g, states, delta_positions, settings, use_bias, second, all_second, &a, &b,
                   &sep);
        lane_d normal[2];
        solve_normal_block(g, &a, &b, &sep, alike_lanes(g, &sep), normal, pushed, second,
                           all_second);
        put_normals(g, normal);
        for (int j = 0; j < 2; ++j) {
            solve_friction_point(g, &a, &b, j, second, all_second);
        }
    }
    end_pass(g, states, &a, &b, pushed);
}

/* One pass over two groups of one colour whose constraints all have two points, solved
 * interleaved, stage by stage and point by point: each group's pass is a chain of clamped
 * impulses, each waiting for the velocities the one before it left, longer than the processor
 * looks ahead; the two groups share no body that either moves, so their chains run side by side
 * and each gives the bits it gives alone. Where a lane may take the block (rare in a pile) the
 * two normal solves run one after the other. */
static CAROM_FORCE_INLINE void solve_group_pair(group_view g0, group_view g1,
                                                carom_body_state* states,
                                                const carom_vec2* delta_positions,
                                                const carom_solve_settings* settings,
                                                bool use_bias) {
    group_view g[2] = {g0, g1};
    lane_mask every = ~lane_zero_mask(); /* every lane has its second point */
    body_lanes a[2], b[2];
    separation_lanes sep[2];
    lane_mask alike[2];
    for (int q = 0; q < 2; ++q) {
        begin_pass(g[q], states, delta_positions, settings, use_bias, every, true, &a[q], &b[q],
                   &sep[q]);
        alike[q] = alike_lanes(g[q], &sep[q]);
    }
    lane_d normal[2][2];
    lane_mask pushed[2][2];
    if (lane_any(alike[0] | alike[1])) {
        for (int q = 0; q < 2; ++q) {
            solve_normal_block(g[q], &a[q], &b[q], &sep[q], alike[q], normal[q], pushed[q], every,
                               true);
        }
    } else {
        lane_d accumulated[2][2] = {{lane_zero(), lane_zero()}, {lane_zero(), lane_zero()}};
        lane_mask top[2][2] = {{lane_zero_mask(), lane_zero_mask()},
                               {lane_zero_mask(), lane_zero_mask()}};
        for (int k = 0; k < 2; ++k) {
            for (int q = 0; q < 2; ++q) {
                solve_ordered_point(g[q], &a[q], &b[q], &sep[q], k, every, true,
                                    &accumulated[q][k], &top[q][k]);
            }
        }
        for (int q = 0; q < 2; ++q) {
            unorder(&sep[q], accumulated[q], top[q], normal[q], pushed[q]);
        }
    }
    for (int q = 0; q < 2; ++q) {
        put_normals(g[q], normal[q]);
    }
    for (int j = 0; j < 2; ++j) {
        for (int q = 0; q < 2; ++q) {
            solve_friction_point(g[q], &a[q], &b[q], j, every, true);
        }
    }
    for (int q = 0; q < 2; ++q) {
        end_pass(g[q], states, &a[q], &b[q], pushed[q]);
    }
}

/* The groups with a one-point constraint, out of line so that the loop over two-point groups
 * stays as small as it was. The group's view comes by address: three pointers by value go
 * through the stack, and reading them back as one vector stalled on the stores just made (the
 * 4,000-ball rain's step took 10 % longer for it). */
static __attribute__((noinline)) void solve_group_with_single_points(
    const group_view* view_of_group, carom_body_state* states, const carom_vec2* delta_positions,
    const carom_solve_settings* settings, bool use_bias, lane_mask second) {
    group_view g = *view_of_group;
    if (lane_any(second)) {
        solve_group_of(g, states, delta_positions, settings, use_bias, 2, second, false);
    } else {
        solve_group_of(g, states, delta_positions, settings, use_bias, 1, second, false);
    }
}

/* The passes over `count` groups, in order; those of one colour (one_color) two at a time
 * where both have two points in every lane (solve_group_pair), which gives the same bits. */
static CAROM_FORCE_INLINE void solve_groups_with(void* groups, const double* colds, int count,
                                                 carom_body_state* states,
                                                 const carom_vec2* delta_positions,
                                                 const carom_solve_settings* settings,
                                                 bool use_bias, bool one_color) {
    char* bytes = groups;
    size_t stride = carom_contact_group_size(LANES);
    size_t cold_stride = CAROM_CC_COUNT * LANES;
    int i = 0;
    while (i < count) {
        group_view g = view(bytes + (size_t)i * stride, colds + (size_t)i * cold_stride);
        lane_mask second = second_points_by_mass(g);
        if (!lane_all(second)) {
            solve_group_with_single_points(&g, states, delta_positions, settings, use_bias, second);
            i += 1;
            continue;
        }
        if (one_color && i + 1 < count) {
            group_view next =
                view(bytes + (size_t)(i + 1) * stride, colds + (size_t)(i + 1) * cold_stride);
            if (lane_all(second_points_by_mass(next))) {
                solve_group_pair(g, next, states, delta_positions, settings, use_bias);
                i += 2;
                continue;
            }
        }
        solve_group_of(g, states, delta_positions, settings, use_bias, 2, second, true);
        i += 1;
    }
}

static void solve_groups(void* groups, const double* colds, int count, carom_body_state* states,
                         const carom_vec2* delta_positions, const carom_solve_settings* settings,
                         bool use_bias, bool one_color) {
    if (use_bias) {
        solve_groups_with(groups, colds, count, states, delta_positions, settings, true,
                          one_color);
    } else {
        solve_groups_with(groups, colds, count, states, delta_positions, settings, false,
                          one_color);
    }
}

/* The kinetic energy of a constraint's moving bodies, in the frame moving with (ux, uy). */
static CAROM_FORCE_INLINE lane_d pair_energy(const body_lanes* a, const body_lanes* b,
                                             const lane_d* mass, lane_d ux, lane_d uy) {
    lane_d vax = a->vx - ux, vay = a->vy - uy, vbx = b->vx - ux, vby = b->vy - uy;
    return lane_splat(0.5) * (mass[0] * (vax * vax + vay * vay) + mass[1] * a->w * a->w +
                              mass[2] * (vbx * vbx + vby * vby) + mass[3] * b->w * b->w);
}

/* 1 / inverse where inverse > 0, else 0: a mass or an inertia from its inverse. */
static CAROM_FORCE_INLINE lane_d lane_inverse_or_zero(lane_d inverse) {
    lane_mask positive = lane_greater(inverse, lane_zero());
    lane_d one = lane_splat(1.0);
    return lane_select(positive, one / lane_select(positive, inverse, one), lane_zero());
}

/* The kinetic energy of the bouncing points' approach along the normal: 1/2 a^T K^-1 a over
 * the points that bounce, with the block's inverse mass matrix where the points have one,
 * else the larger single point's (two points too close for a block act as one). */
static CAROM_FORCE_INLINE lane_d approach_energy(group_view g, lane_i32 flags,
                                                 const lane_d* approach) {
    lane_d k11 = get_cold(g, CAROM_CC_INV_K11), k12 = get_cold(g, CAROM_CC_INV_K12);
    lane_d k22 = get_cold(g, CAROM_CC_INV_K22);
    lane_d block = k11 * approach[0] * approach[0] +
                   lane_splat(2.0) * k12 * approach[0] * approach[1] +
                   k22 * approach[1] * approach[1];
    lane_d single = lane_max(get(g, PF(0, CAROM_CF_NORMAL_MASS)) * approach[0] * approach[0],
                             get(g, PF(1, CAROM_CF_NORMAL_MASS)) * approach[1] * approach[1]);
    return lane_splat(0.5) * lane_select(lane_flag_mask(flags, CAROM_CF_BLOCK), block, single);
}

/* Take back the part of a constraint's bounce that gives its bodies more energy than
 * restitution^2 times the energy of the approach it reverses. Each point bounces at its own
 * approach speed, measured before friction turned part of it into spin: on a spinning body that
 * meets a wall with both corners of a face, the two bounces together gave back more than the
 * impact took (a light polygon gained 28% at every wall of a closed box, until it left the box
 * at 690 m/s). The energy the bounce adds is a quadratic in the fraction s of it that is kept;
 * the largest s within the allowance is. Returns s. */
static CAROM_FORCE_INLINE lane_d limit_bounce(body_lanes* a, body_lanes* b, const body_lanes* a0,
                                              const body_lanes* b0, const constraint_lanes* c,
                                              lane_d allowed) {
    lane_d zero = lane_zero(), one = lane_splat(1.0);
    lane_d mass[4] = {lane_inverse_or_zero(c->inv_mass_a), lane_inverse_or_zero(c->inv_inertia_a),
                      lane_inverse_or_zero(c->inv_mass_b), lane_inverse_or_zero(c->inv_inertia_b)};
    /* energies in the frame of a static or kinematic partner */
    lane_mask a_moves = lane_greater(c->inv_mass_a, zero);
    lane_mask b_moves = lane_greater(c->inv_mass_b, zero);
    lane_d ux = lane_select(a_moves, lane_select(b_moves, zero, b0->vx), a0->vx);
    lane_d uy = lane_select(a_moves, lane_select(b_moves, zero, b0->vy), a0->vy);
    body_lanes da = {a->vx - a0->vx, a->vy - a0->vy, a->w - a0->w, zero, zero, zero, zero, zero};
    body_lanes db = {b->vx - b0->vx, b->vy - b0->vy, b->w - b0->w, zero, zero, zero, zero, zero};
    lane_d added = pair_energy(a, b, mass, ux, uy) - pair_energy(a0, b0, mass, ux, uy);
    lane_d quadratic = pair_energy(&da, &db, mass, zero, zero);
    lane_d linear = added - quadratic;
    lane_d root =
        (lane_sqrt(lane_max(linear * linear + lane_splat(4.0) * quadratic * allowed, zero)) -
         linear) /
        (lane_splat(2.0) * lane_select(lane_greater(quadratic, zero), quadratic, one));
    lane_d s = lane_select(lane_greater(added, allowed), lane_max(lane_min(root, one), zero), one);
    a->vx = a0->vx + s * da.vx;
    a->vy = a0->vy + s * da.vy;
    a->w = a0->w + s * da.w;
    b->vx = b0->vx + s * db.vx;
    b->vy = b0->vy + s * db.vy;
    b->w = b0->w + s * db.w;
    return s;
}

/* Drive each approaching point's normal velocity to -restitution times its approach speed
 * before the step, if that speed was above the threshold and the point pushed, within the
 * energy of the approach (limit_bounce). */
static void restitution_groups(void* groups, const double* colds, int count,
                               carom_body_state* states, double threshold) {
    char* bytes = groups;
    size_t stride = carom_contact_group_size(LANES);
    for (int i = 0; i < count; ++i) {
        const double* cold = colds + (size_t)i * CAROM_CC_COUNT * LANES;
        group_view g = view(bytes + (size_t)i * stride, cold);
        lane_d restitution = lane_load(cold + CAROM_CC_RESTITUTION * LANES);
        if (!lane_any(lane_greater(restitution, lane_zero()))) {
            continue; /* nothing here bounces: most piles */
        }
        body_lanes a = gather_velocities(states, g.ints + CAROM_CI_STATE_A * LANES);
        body_lanes b = gather_velocities(states, g.ints + CAROM_CI_STATE_B * LANES);
        body_lanes a0 = a, b0 = b;
        constraint_lanes c = load_constraint(g);
        lane_d before[2], bounced[2], approach[2];
        lane_mask second = second_points(g);
        lane_i32 flags = lane_load_i32(g.ints + CAROM_CI_FLAGS * LANES);
        for (int j = 0; j < 2; ++j) {
            point_lanes p = load_point(g, j);
            lane_d speed = lane_load(cold + (CAROM_CC_RELATIVE_VELOCITY1 + j) * LANES);
            lane_d accumulated = get(g, PF(j, CAROM_CF_NORMAL_IMPULSE));
            lane_mask bounces = lane_greater(lane_splat(-threshold), speed) &
                                lane_flag_mask(flags, CAROM_CF_PUSHED1 << j) &
                                lane_greater(restitution, lane_zero());
            lane_d vn = relative_speed(&a, &b, &p, c.nx, c.ny);
            lane_d impulse = -get(g, PF(j, CAROM_CF_NORMAL_MASS)) * (vn + restitution * speed);
            lane_d total = lane_max(accumulated + impulse, lane_zero());
            impulse = lane_select(bounces, total - accumulated, lane_zero());
            before[j] = accumulated;
            bounced[j] = impulse;
            approach[j] = lane_select(bounces, speed, lane_zero());
            if (j == 0 || lane_all(second)) {
                apply(&a, &b, &c, &p, impulse * c.nx, impulse * c.ny);
            } else {
                apply_where(second, &a, &b, &c, &p, impulse * c.nx, impulse * c.ny);
            }
        }
        /* a millionth more, so that rounding never trims an exact bounce */
        lane_d allowed = restitution * restitution * approach_energy(g, flags, approach) *
                         lane_splat(1.0 + 1e-6);
        lane_d kept = limit_bounce(&a, &b, &a0, &b0, &c, allowed);
        for (int j = 0; j < 2; ++j) {
            put(g, PF(j, CAROM_CF_NORMAL_IMPULSE), before[j] + kept * bounced[j]);
        }
        scatter(states, g.ints + CAROM_CI_STATE_A * LANES, g.ints + CAROM_CI_FLAGS * LANES,
                CAROM_CF_WRITE_A, &a);
        scatter(states, g.ints + CAROM_CI_STATE_B * LANES, g.ints + CAROM_CI_FLAGS * LANES,
                CAROM_CF_WRITE_B, &b);
    }
}

/* ---- Preparing one lane ---------------------------------------------------------------------
 * Once per constraint per step; here rather than in contact_solver.c so that every field's
 * address is a constant of the width. */

/* Double field `field` of lane `lane` in a group, float field `field`, and a cold field. */
#define LANE_FIELD(group, field, lane) (*carom_contact_field((group), LANES, (field), (lane)))
#define LANE_FLOAT(group, field, lane) (*carom_contact_float((group), LANES, (field), (lane)))
#define COLD_FIELD(cold, field, lane) ((cold)[(field)*LANES + (lane)])
/* Field `field` of the point (0 or 1) of lane `lane`. */
#define POINT_FIELD(group, field, point, lane)                                                     \
    LANE_FIELD((group), carom_contact_point_field((field), (point)), (lane))
#define POINT_FLOAT(group, field, point, lane)                                                     \
    LANE_FLOAT((group), carom_contact_point_float((field), (point)), (lane))

static void clear_point(unsigned char* group, double* cold, int lane, int point) {
    for (int field = CAROM_CF_WARM_POINT1; field < CAROM_CF_WARM_POINT_END; ++field) {
        POINT_FIELD(group, field, point, lane) = 0.0;
    }
    for (int field = CAROM_CF_SOLVE_POINT1; field < CAROM_CF_SOLVE_POINT_END; ++field) {
        POINT_FIELD(group, field, point, lane) = 0.0;
    }
    for (int field = CAROM_CFF_WARM_POINT1; field < CAROM_CFF_WARM_POINT_END; ++field) {
        POINT_FLOAT(group, field, point, lane) = 0.0f;
    }
    for (int field = CAROM_CFF_SOLVE_POINT1; field < CAROM_CFF_SOLVE_POINT_END; ++field) {
        POINT_FLOAT(group, field, point, lane) = 0.0f;
    }
    COLD_FIELD(cold, CAROM_CC_RELATIVE_VELOCITY1 + point, lane) = 0.0;
}

static void clear_lane(void* group, double* cold, int lane) {
    for (int field = 0; field < CAROM_CF_COUNT; ++field) {
        LANE_FIELD(group, field, lane) = 0.0;
    }
    for (int field = 0; field < CAROM_CFF_COUNT; ++field) {
        LANE_FLOAT(group, field, lane) = 0.0f;
    }
    for (int field = 0; field < CAROM_CC_COUNT; ++field) {
        COLD_FIELD(cold, field, lane) = 0.0;
    }
    int32_t* ints = carom_contact_ints(group, LANES);
    for (int k = 0; k < CAROM_CI_COUNT; ++k) {
        ints[k * LANES + lane] = 0;
    }
}

/* A lane's own point: what the manifold fixes (its anchors and the impulses it carries from
 * the last step). The group (and, below, the cold group) is written through restrict pointers:
 * it never overlaps the contact and states read, and without the promise each store made the
 * compiler read those again. The float fields are rounded to the nearest float here (the
 * casts), as the kernels' put_float rounds (the same conversion). */
static CAROM_FORCE_INLINE void prepare_point(unsigned char* restrict group, int lane, int point,
                                             const carom_contact_point* mp,
                                             const carom_contact_impulse* impulse) {
    POINT_FLOAT(group, CAROM_CFF_ANCHOR_A_X, point, lane) = (float)mp->anchor_a.x;
    POINT_FLOAT(group, CAROM_CFF_ANCHOR_A_Y, point, lane) = (float)mp->anchor_a.y;
    POINT_FLOAT(group, CAROM_CFF_ANCHOR_B_X, point, lane) = (float)mp->anchor_b.x;
    POINT_FLOAT(group, CAROM_CFF_ANCHOR_B_Y, point, lane) = (float)mp->anchor_b.y;
    POINT_FIELD(group, CAROM_CF_NORMAL_IMPULSE, point, lane) = impulse->normal;
    POINT_FIELD(group, CAROM_CF_TANGENT_IMPULSE, point, lane) = impulse->tangent;
}

/* And what changes while the manifold is recycled: its separation, and its approach before the
 * step, for restitution and hit events (from the bodies' velocities before the step, which
 * only the preparation sees). */
static CAROM_FORCE_INLINE void prepare_point_motion(unsigned char* restrict group,
                                                    double* restrict cold, int lane, int point,
                                                    const carom_contact_point* mp,
                                                    carom_vec2 normal,
                                                    const carom_contact_input* in) {
    POINT_FLOAT(group, CAROM_CFF_BASE_SEPARATION, point, lane) = (float)mp->separation;
    const carom_body_state* sa = in->body_a;
    const carom_body_state* sb = in->body_b;
    carom_vec2 va =
        carom_add(sa->linear_velocity, carom_cross_sv(sa->angular_velocity, mp->anchor_a));
    carom_vec2 vb =
        carom_add(sb->linear_velocity, carom_cross_sv(sb->angular_velocity, mp->anchor_b));
    COLD_FIELD(cold, CAROM_CC_RELATIVE_VELOCITY1 + point, lane) =
        carom_dot(normal, carom_sub(vb, va));
}

/* A one-point constraint's missing second point, cleared: a point with no mass pushes
 * nothing, and no block. */
static CAROM_FORCE_INLINE void clear_second_point(unsigned char* restrict group,
                                                  double* restrict cold, int lane) {
    clear_point(group, cold, lane, 1);
    for (int field = CAROM_CC_INV_K11; field <= CAROM_CC_INV_K22; ++field) {
        COLD_FIELD(cold, field, lane) = 0.0;
    }
}

/* What a recycled manifold changes in a lane (the points' motion), and a missing second
 * point's fields, which the passes may have left other than zero. */
static CAROM_FORCE_INLINE void prepare_lane_motion(unsigned char* restrict group,
                                                   double* restrict cold, int lane,
                                                   const carom_contact_input* in) {
    const carom_contact* contact = in->contact;
    prepare_point_motion(group, cold, lane, 0, &contact->points[0], contact->normal, in);
    if (contact->point_count == 2) {
        prepare_point_motion(group, cold, lane, 1, &contact->points[1], contact->normal, in);
    } else {
        clear_second_point(group, cold, lane);
    }
}

/* That no point of the lane has pushed yet this step; its other flags stay as the last step's
 * fill and first warm start left them. */
static CAROM_FORCE_INLINE void clear_pushed(void* group_memory, int lane) {
    int32_t* flags = carom_contact_ints(group_memory, LANES) + CAROM_CI_FLAGS * LANES + lane;
    *flags &= ~(CAROM_CF_PUSHED1 | CAROM_CF_PUSHED2);
}

/* A refreshed lane's whole preparation (lanes_refreshable, contact_solver.c): its motion and
 * its flags. The masses, the block and CAROM_CF_SECOND stay: they follow from fields that
 * stayed. */
static CAROM_FORCE_INLINE void refresh_lane(void* group_memory, double* restrict cold, int lane,
                                            const carom_contact_input* in) {
    clear_pushed(group_memory, lane);
    prepare_lane_motion(group_memory, cold, lane, in);
}

/* refresh_lane for a lane whose approach nothing reads (CAROM_REFRESH_SEPARATIONS, solver.h):
 * its separations, as the touching note rounded them, and its flags, without a read of the
 * contact or of its bodies' states, which made most of a resting pile's fill. Its approach
 * stays the last fill's or refresh's: the lane cannot bounce and no hit event is asked for,
 * and a step in which either changes fills or refreshes it whole (solver.h). */
static CAROM_FORCE_INLINE void refresh_separations(void* group_memory, double* restrict cold,
                                                   int lane, const float* separations,
                                                   int points) {
    unsigned char* restrict group = group_memory;
    clear_pushed(group_memory, lane);
    POINT_FLOAT(group, CAROM_CFF_BASE_SEPARATION, 0, lane) = separations[0];
    if (points == 2) {
        POINT_FLOAT(group, CAROM_CFF_BASE_SEPARATION, 1, lane) = separations[1];
    } else {
        clear_second_point(group, cold, lane);
    }
}

/* Once a step, per constraint, what needs nothing but the contact: copied into its lane. What
 * is worked out from those fields alone (the effective masses, the block) is left to
 * finish_group, a group at a time in lane values, in the step's first warm start, which reads
 * those fields anyway: lane by lane it was most of this function's instructions. */
static CAROM_FORCE_INLINE void prepare_lane(void* group_memory, double* restrict cold, int lane,
                                            const carom_contact_input* in) {
    const carom_contact* contact = in->contact;
    int32_t* ints = carom_contact_ints(group_memory, LANES);
    unsigned char* restrict group = group_memory;
    ints[CAROM_CI_STATE_A * LANES + lane] = (int32_t)((uint32_t)in->state_a * CAROM_STATE_DOUBLES);
    ints[CAROM_CI_STATE_B * LANES + lane] = (int32_t)((uint32_t)in->state_b * CAROM_STATE_DOUBLES);
    LANE_FLOAT(group, CAROM_CFF_NORMAL_X, lane) = (float)contact->normal.x;
    LANE_FLOAT(group, CAROM_CFF_NORMAL_Y, lane) = (float)contact->normal.y;
    LANE_FLOAT(group, CAROM_CFF_FRICTION, lane) = (float)contact->friction;
    COLD_FIELD(cold, CAROM_CC_RESTITUTION, lane) = contact->restitution;
    LANE_FIELD(group, CAROM_CF_INV_MASS_A, lane) = in->mass_a.inv_mass;
    LANE_FIELD(group, CAROM_CF_INV_INERTIA_A, lane) = in->mass_a.inv_inertia;
    LANE_FIELD(group, CAROM_CF_INV_MASS_B, lane) = in->mass_b.inv_mass;
    LANE_FIELD(group, CAROM_CF_INV_INERTIA_B, lane) = in->mass_b.inv_inertia;
    prepare_point(group, lane, 0, &contact->points[0], &contact->impulses[0]);
    bool two_points = contact->point_count == 2;
    if (two_points) {
        prepare_point(group, lane, 1, &contact->points[1], &contact->impulses[1]);
    }
    prepare_lane_motion(group, cold, lane, in);
    /* no point has pushed yet this step, and the masses are to be worked out */
    ints[CAROM_CI_FLAGS * LANES + lane] = (in->mass_a.inv_mass > 0.0 ? CAROM_CF_WRITE_A : 0) |
                                          (in->mass_b.inv_mass > 0.0 ? CAROM_CF_WRITE_B : 0) |
                                          (two_points ? CAROM_CF_TWO_POINTS : 0) | CAROM_CF_FILLED;
}
#undef POINT_FIELD
#undef POINT_FLOAT
#undef LANE_FIELD
#undef LANE_FLOAT
#undef COLD_FIELD

/* prepare_lane out of line, for the kernel's table: the overflow's constraints are prepared
 * through carom_contact_kernel_lanes1's. */
static void prepare_one(void* group, double* cold, int lane, const carom_contact_input* in) {
    prepare_lane(group, cold, lane, in);
}

/* Constraints ahead of the one being filled whose scattered reads (the bodies' states and
 * masses, and the contact up to its points) are fetched into the cache early. Only a hint: no
 * result depends on it. The contact's lines (its 264 bytes the fill reads) were the fill's
 * largest stall on the 16,000-ball rain, whose contacts lie all over their array: fetched
 * ahead, the fill's share of the rain's samples fell from 10.1 % to 8.2 %, and a step took
 * 17.98 -> 17.57 ms on one CPU (medians of 8 alternating runs, 2026-11-27; two workers and
 * the pyramids, whose fills mostly refresh separations without the contact, level). */
#define CONTACTS_AHEAD 8

/* The lines of a coloured group and of its cold group (its lane writer's), fetched into the
 * cache to be written. */
static void fetch_group_for_writing(carom_lane_writer w) {
    for (size_t offset = 0; offset < carom_contact_group_size(LANES); offset += 64) {
        __builtin_prefetch((const char*)w.group + offset, 1);
    }
    for (size_t offset = 0; offset < carom_contact_cold_size(LANES); offset += 64) {
        __builtin_prefetch((const char*)w.cold + offset, 1);
    }
}

/* Only the lines a refresh writes (prepare_lane_motion's for two points; without the
 * approach, refresh_separations'). */
static void fetch_motion_for_writing(carom_lane_writer w, bool approach) {
    const char* group = w.group;
    __builtin_prefetch(group + CAROM_CI_FLAGS * LANES * sizeof(int32_t), 1);
    for (int point = 0; point < 2; ++point) {
        int separation = carom_contact_point_float(CAROM_CFF_BASE_SEPARATION, point);
        __builtin_prefetch(group + carom_contact_float_offset(LANES, separation), 1);
        if (approach) {
            __builtin_prefetch(w.cold + (CAROM_CC_RELATIVE_VELOCITY1 + point) * LANES, 1);
        }
    }
}

/* Filled in contact order: the contacts are read front to back, and the lanes written are one
 * moving front per colour (two: its one-point and its two-point constraints), each front
 * writing its groups one after the other, lane 0 first. Those are too many streams for the
 * hardware to foresee: each lane's stores waited for their lines to come from memory (two thirds
 * of the fill on many_pyramids). So a constraint that starts a group fetches the next group of
 * its front for writing, a few dozen constraints before it is written. (Filling group by group
 * instead wrote whole lines in order but read the contacts out of order, and was slower still;
 * with the contacts fetched ahead, tried on 2026-11-27, it was no faster.) The loop is
 * compiled with each width, so that prepare_lane is inlined into it: called through the
 * kernel's table, the fill took a quarter more samples on many_pyramids (0.34 of the solve's,
 * against 0.27). Each constraint writes its own lane only, so ranges may be filled at the same
 * time (solver.c spreads them over the workers). In a step that refreshes its lanes
 * (lanes_refreshable, contact_solver.c), a constraint whose manifold was recycled only
 * refreshes its lane (refresh_lane): its separations, its approach and its flags, a few lines a
 * group instead of all of them, and its group's masses are not worked out again; where nothing
 * reads the approach, its separations and flags alone, from the solver's arrays, without the
 * contact or its bodies' states (refresh_separations: on many_pyramids every constraint after
 * the first step, and 5 to 6 % of its step). */
static void fill_constraints(carom_solver* solver, const carom_contact* contacts, int begin,
                             int end) {
    bool refresh = solver->refresh_lanes;
    for (int i = begin; i < end; ++i) {
        /* the bodies of a pile's contacts are anywhere; a lane refreshing its separations
         * alone reads neither them nor the contact */
        if (i + CONTACTS_AHEAD < end &&
            !(refresh && solver->constraint_refresh[i + CONTACTS_AHEAD] ==
                             CAROM_REFRESH_SEPARATIONS)) {
            int ahead_a = solver->state_a[i + CONTACTS_AHEAD];
            int ahead_b = solver->state_b[i + CONTACTS_AHEAD];
            __builtin_prefetch(&solver->states[ahead_a]);
            __builtin_prefetch(&solver->states[ahead_b]);
            carom_prefetch_lines(&contacts[solver->constraint_contacts[i + CONTACTS_AHEAD]],
                                 offsetof(carom_contact, manifold_cached));
            if (!refresh) { /* a refresh reads no mass */
                __builtin_prefetch(&solver->masses[ahead_a]);
                __builtin_prefetch(&solver->masses[ahead_b]);
            }
        }
        int slot = solver->constraint_slots[i];
        carom_lane_writer w = carom_slot_lane(solver, slot, LANES);
        int how = refresh ? solver->constraint_refresh[i] : CAROM_REFRESH_NONE;
        if (slot >= 0 && w.lane == 0 && slot / LANES + 1 < solver->group_count) {
            carom_lane_writer next = carom_slot_lane(solver, slot + LANES, LANES);
            if (refresh) {
                fetch_motion_for_writing(next, how != CAROM_REFRESH_SEPARATIONS);
            } else {
                fetch_group_for_writing(next);
            }
        }
        if (how == CAROM_REFRESH_SEPARATIONS && slot >= 0) {
            refresh_separations(w.group, w.cold, w.lane, &solver->constraint_separations[2 * i],
                                solver->constraint_points[i]);
            continue;
        }
        int a = solver->state_a[i];
        int b = solver->state_b[i];
        carom_contact_input input = {&contacts[solver->constraint_contacts[i]],
                                     a,
                                     b,
                                     &solver->states[a],
                                     &solver->states[b],
                                     solver->masses[a],
                                     solver->masses[b]};
        bool refreshed = how != CAROM_REFRESH_NONE;
        if (!refreshed) { /* a refreshed lane's contact is the one it had */
            solver->lane_contacts[carom_lane_contact(solver, slot)] =
                solver->constraint_contacts[i];
        }
        if (slot < 0) { /* the overflow's width-1 groups */
            carom_contact_kernel_lanes1.prepare(w.group, w.cold, w.lane, &input);
            continue;
        }
        if (refreshed) {
            refresh_lane(w.group, w.cold, w.lane, &input);
        } else {
            prepare_lane(w.group, w.cold, w.lane, &input);
        }
    }
}

/* A point's effective masses, and what the block takes from it: its anchors across the normal
 * and its normal mass's inverse. The operations, in order, of the scalar
 *   k = ima + imb + iia * rna * rna + iib * rnb * rnb,
 * rna = ra x n, and likewise along the tangent (n.y, -n.x). */
typedef struct point_masses {
    lane_d rna, rnb, k_normal, normal_mass, tangent_mass;
} point_masses;

static CAROM_FORCE_INLINE point_masses masses_of(const constraint_lanes* c, const point_lanes* p) {
    point_masses m;
    lane_d tx = c->ny, ty = -c->nx;
    lane_d mass = c->inv_mass_a + c->inv_mass_b;
    m.rna = p->rax * c->ny - p->ray * c->nx;
    m.rnb = p->rbx * c->ny - p->rby * c->nx;
    m.k_normal = mass + c->inv_inertia_a * m.rna * m.rna + c->inv_inertia_b * m.rnb * m.rnb;
    m.normal_mass = lane_inverse_or_zero(m.k_normal);
    lane_d rta = p->rax * ty - p->ray * tx;
    lane_d rtb = p->rbx * ty - p->rby * tx;
    lane_d k_tangent = mass + c->inv_inertia_a * rta * rta + c->inv_inertia_b * rtb * rtb;
    m.tangent_mass = lane_inverse_or_zero(k_tangent);
    return m;
}

/* The rest of a group's preparation (prepare_lane), in lane values: the points' normal and
 * tangent masses (a missing second point keeps none), and where both points are there, the
 * block's inverse mass matrix if it is well conditioned (k11^2 < 1000 det: points too close
 * together make it nearly singular, and they are solved one by one); the flags CAROM_CF_BLOCK
 * and CAROM_CF_SECOND. Each lane does what prepare_lane did for it alone, operation for
 * operation, so the bits are the same. */
static CAROM_FORCE_INLINE void finish_group(group_view g, double* cold) {
    constraint_lanes c = load_constraint(g);
    point_lanes p0 = load_point(g, 0);
    lane_i32 flags = lane_load_i32(g.ints + CAROM_CI_FLAGS * LANES);
    lane_mask two = lane_flag_mask(flags, CAROM_CF_TWO_POINTS);
    point_masses m0 = masses_of(&c, &p0);
    put(g, PF(0, CAROM_CF_NORMAL_MASS), m0.normal_mass);
    put_float(g, PFF(0, CAROM_CFF_TANGENT_MASS), m0.tangent_mass);
    if (!lane_any(two)) {
        /* one point in every lane (circles): prepare_lane cleared the second point and the
         * block's matrix, and there are no flags to add */
        lane_store_i32(g.ints + CAROM_CI_FLAGS * LANES, flags & ~CAROM_CF_FILLED);
        return;
    }
    point_lanes p1 = load_point(g, 1);
    point_masses m1 = masses_of(&c, &p1);
    lane_d normal_mass1 = lane_select(two, m1.normal_mass, lane_zero());
    put(g, PF(1, CAROM_CF_NORMAL_MASS), normal_mass1);
    put_float(g, PFF(1, CAROM_CFF_TANGENT_MASS), lane_select(two, m1.tangent_mass, lane_zero()));

    lane_d mass = c.inv_mass_a + c.inv_mass_b;
    lane_d k11 = m0.k_normal, k22 = m1.k_normal;
    lane_d k12 = mass + c.inv_inertia_a * m0.rna * m1.rna + c.inv_inertia_b * m0.rnb * m1.rnb;
    lane_d determinant = k11 * k22 - k12 * k12;
    lane_mask block = two & lane_greater(lane_splat(1000.0) * determinant, k11 * k11);
    lane_d inv_det = lane_splat(1.0) / lane_select(block, determinant, lane_splat(1.0));
    lane_store(cold + CAROM_CC_INV_K11 * LANES, lane_select(block, inv_det * k22, lane_zero()));
    lane_store(cold + CAROM_CC_INV_K12 * LANES, lane_select(block, -inv_det * k12, lane_zero()));
    lane_store(cold + CAROM_CC_INV_K22 * LANES, lane_select(block, inv_det * k11, lane_zero()));
    lane_mask second = lane_greater(normal_mass1, lane_zero());
    lane_store_i32(g.ints + CAROM_CI_FLAGS * LANES,
                   (flags & ~CAROM_CF_FILLED) |
                       lane_flag_bits2(block, CAROM_CF_BLOCK, second, CAROM_CF_SECOND));
}

const carom_contact_kernel CAROM_KERNEL_NAME = {
    LANES,        prepare_one,       fill_constraints, clear_lane, warm_start_groups,
    solve_groups, restitution_groups};
