/* The solver: sequential impulses on soft contacts, with substeps and relaxation ("soft step").
 *
 * Why this design (Catto, "Solver2D", 2024, which measured it against Baumgarte, split
 * impulses, NGS, TGS and XPBD): the step is split into substeps; in each, velocities are
 * integrated, last substep's impulses are applied again (warm starting), contacts are solved as
 * soft constraints (a spring of contact_hertz with damping contact_damping_ratio, so position
 * error is removed smoothly and never faster than contact_push_max_velocity), positions are
 * integrated, and a relax pass solves the contacts once more without the position bias so the
 * push-out leaves no energy in the bodies. Restitution is applied once, after the substeps, from
 * the approach speed measured before solving: inside the iterations it would fight the position
 * correction and give wrong bounce heights.
 *
 * The narrow phase runs once per step. Inside the substeps a contact's separation is updated
 * cheaply from the bodies' motion since the step began, along the fixed normal:
 *   s = s0 + n . ((dpB + R(dqB) rB - rB) - (dpA + R(dqA) rA - rA))
 * where rA, rB are the anchors at the start of the step. A positive s is a speculative gap: the
 * solver lets the bodies close it within this substep but no further.
 *
 * Accumulated impulses are clamped, not increments: the total normal impulse of a point stays
 * >= 0 and its friction impulse within friction * normal impulse (Catto, GDC 2006).
 * Bodies the solver moves are copied into a compact array of states (velocity and motion this
 * step), with what their velocity gains per substep precomputed; every static (or sleeping)
 * body in a constraint points at one shared rest state at the end of that array. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>

void carom_solver_destroy(carom_solver* solver) {
    arrfree(solver->states);
    arrfree(solver->state_bodies);
    arrfree(solver->constraints);
    arrfree(solver->motions);
}

static carom_softness make_softness(double hertz, double damping_ratio, double h) {
    carom_softness soft = {0.0, 1.0, 0.0};
    if (hertz == 0.0) {
        return soft;
    }
    double omega = 2.0 * CAROM_PI * hertz;
    double a1 = 2.0 * damping_ratio + h * omega;
    double a2 = h * omega * a1;
    double a3 = 1.0 / (1.0 + a2);
    soft.bias_rate = omega / a1;
    soft.mass_scale = a2 * a3;
    soft.impulse_scale = a3;
    return soft;
}

/* Copy every awake non-static body into the solver's state array, with what its velocity
 * gains each substep, and add the shared rest state for static bodies at the end. */
static void gather_bodies(carom_world* world, double h) {
    carom_solver* solver = &world->solver;
    int body_count = (int)arrlen(world->bodies);
    /* room for every body and the rest state, then written by index: cheaper than a growth
     * check per body */
    arrsetlen(solver->states, body_count + 1);
    arrsetlen(solver->state_bodies, body_count);
    arrsetlen(solver->motions, body_count);
    carom_vec2 gravity = world->def.gravity;
    int count = 0;
    for (int i = 0; i < body_count; ++i) {
        carom_body* body = &world->bodies[i];
        body->solver_index = -1;
        if (body->id < 0 || body->type == CAROM_BODY_STATIC || body->asleep) {
            continue;
        }
        body->solver_index = count;
        carom_body_state state = {body->linear_velocity, body->angular_velocity, {0.0, 0.0},
                                  {1.0, 0.0}, 0.0};
        carom_body_motion motion = {1.0, 1.0, {0.0, 0.0}, 0.0};
        if (body->type == CAROM_BODY_DYNAMIC) {
            motion.linear_damping = 1.0 / (1.0 + h * body->linear_damping);
            motion.angular_damping = 1.0 / (1.0 + h * body->angular_damping);
            carom_vec2 acceleration = carom_scale(
                body->inv_mass,
                carom_mul_add(body->force, body->mass * body->gravity_scale, gravity));
            motion.linear_increment = carom_scale(h, acceleration);
            motion.angular_increment = h * body->inv_inertia * body->torque;
        }
        solver->states[count] = state;
        solver->motions[count] = motion;
        solver->state_bodies[count] = i;
        count += 1;
    }
    solver->moving_count = count;
    carom_body_state rest = {{0.0, 0.0}, 0.0, {0.0, 0.0}, {1.0, 0.0}, 0.0};
    solver->states[count] = rest;
    arrsetlen(solver->states, count + 1);
    arrsetlen(solver->state_bodies, count);
    arrsetlen(solver->motions, count);
}

static void prepare_point(carom_constraint_point* cp, const carom_contact_point* mp,
                          const carom_contact_constraint* c, const carom_body* body_a,
                          const carom_body* body_b) {
    carom_vec2 normal = c->normal;
    carom_vec2 tangent = carom_right_perp(normal);
    carom_vec2 ra = mp->anchor_a;
    carom_vec2 rb = mp->anchor_b;
    cp->anchor_a = ra;
    cp->anchor_b = rb;
    cp->base_separation = mp->separation;
    cp->normal_impulse = mp->normal_impulse;
    cp->tangent_impulse = mp->tangent_impulse;
    cp->max_normal_impulse = 0.0;

    double rna = carom_cross(ra, normal);
    double rnb = carom_cross(rb, normal);
    double k_normal = c->inv_mass_a + c->inv_mass_b + c->inv_inertia_a * rna * rna +
                      c->inv_inertia_b * rnb * rnb;
    cp->normal_mass = k_normal > 0.0 ? 1.0 / k_normal : 0.0;
    double rta = carom_cross(ra, tangent);
    double rtb = carom_cross(rb, tangent);
    double k_tangent = c->inv_mass_a + c->inv_mass_b + c->inv_inertia_a * rta * rta +
                       c->inv_inertia_b * rtb * rtb;
    cp->tangent_mass = k_tangent > 0.0 ? 1.0 / k_tangent : 0.0;

    carom_vec2 va = carom_add(body_a->linear_velocity, carom_cross_sv(body_a->angular_velocity, ra));
    carom_vec2 vb = carom_add(body_b->linear_velocity, carom_cross_sv(body_b->angular_velocity, rb));
    cp->relative_velocity = carom_dot(normal, carom_sub(vb, va));
}

/* Sequential impulses on the two points of a manifold are order dependent: the first point's
 * impulse turns the bodies before the second is solved, so a symmetric stack gains a little
 * spin and sideways drift every step. Solving both normal impulses together from the 2x2
 * effective-mass matrix (Catto's block solver in Box2D 2.x) removes that bias. */
static void prepare_block(carom_contact_constraint* c) {
    c->block_solve = false;
    if (c->point_count != 2) {
        return;
    }
    carom_vec2 n = c->normal;
    double rn1a = carom_cross(c->points[0].anchor_a, n);
    double rn1b = carom_cross(c->points[0].anchor_b, n);
    double rn2a = carom_cross(c->points[1].anchor_a, n);
    double rn2b = carom_cross(c->points[1].anchor_b, n);
    double m = c->inv_mass_a + c->inv_mass_b;
    double k11 = m + c->inv_inertia_a * rn1a * rn1a + c->inv_inertia_b * rn1b * rn1b;
    double k22 = m + c->inv_inertia_a * rn2a * rn2a + c->inv_inertia_b * rn2b * rn2b;
    double k12 = m + c->inv_inertia_a * rn1a * rn2a + c->inv_inertia_b * rn1b * rn2b;
    double determinant = k11 * k22 - k12 * k12;
    /* Points too close together make the matrix nearly singular: solve them one by one. */
    const double max_condition = 1000.0;
    if (!(k11 * k11 < max_condition * determinant)) {
        return;
    }
    double inv_det = 1.0 / determinant;
    c->inv_k11 = inv_det * k22;
    c->inv_k12 = -inv_det * k12;
    c->inv_k22 = inv_det * k11;
    c->block_solve = true;
}

/* One constraint per touching contact that involves a body the solver moves. */
static void prepare_contacts(carom_world* world, double h) {
    carom_solver* solver = &world->solver;
    /* A stiffer spring than a quarter of the substep rate is not resolved by the substeps and
     * rings. Contacts against static (or kinematic) bodies may be twice as stiff, within the
     * same cap: measured, letting them exceed it made a 100 kg box on a 1 kg box wobble and
     * slide off at 4 substeps. */
    double max_hertz = 0.25 / h;
    double contact_hertz = carom_min_d(world->def.contact_hertz, max_hertz);
    double static_hertz = carom_min_d(2.0 * world->def.contact_hertz, max_hertz);
    carom_softness soft = make_softness(contact_hertz, world->def.contact_damping_ratio, h);
    carom_softness static_soft = make_softness(static_hertz, world->def.contact_damping_ratio, h);

    arrsetlen(solver->constraints, 0);
    for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
        const carom_contact* contact = &world->contacts[i];
        if (contact->id < 0 || contact->point_count == 0 || contact->is_sensor) {
            continue;
        }
        const carom_body* body_a = &world->bodies[contact->edges[0].body];
        const carom_body* body_b = &world->bodies[contact->edges[1].body];
        if (body_a->solver_index < 0 && body_b->solver_index < 0) {
            continue; /* both static or asleep */
        }
        /* written in place: a constraint is 312 bytes, too many to build and then copy */
        carom_contact_constraint* c = arraddnptr(solver->constraints, 1);
        c->contact = i;
        c->state_a = body_a->solver_index >= 0 ? body_a->solver_index : solver->moving_count;
        c->state_b = body_b->solver_index >= 0 ? body_b->solver_index : solver->moving_count;
        c->normal = contact->normal;
        c->friction = contact->friction;
        c->restitution = contact->restitution;
        /* a body without a solver state is not moved by the solver: infinite mass */
        c->inv_mass_a = body_a->solver_index >= 0 ? body_a->inv_mass : 0.0;
        c->inv_inertia_a = body_a->solver_index >= 0 ? body_a->inv_inertia : 0.0;
        c->inv_mass_b = body_b->solver_index >= 0 ? body_b->inv_mass : 0.0;
        c->inv_inertia_b = body_b->solver_index >= 0 ? body_b->inv_inertia : 0.0;
        c->softness = (c->inv_mass_a == 0.0 || c->inv_mass_b == 0.0) ? static_soft : soft;
        c->point_count = contact->point_count;
        for (int j = 0; j < c->point_count; ++j) {
            prepare_point(&c->points[j], &contact->points[j], c, body_a, body_b);
        }
        prepare_block(c);
    }
}

static void integrate_velocities(carom_world* world) {
    carom_solver* solver = &world->solver;
    int count = solver->moving_count;
    for (int i = 0; i < count; ++i) {
        const carom_body_motion* m = &solver->motions[i];
        carom_body_state* state = &solver->states[i];
        state->linear_velocity = carom_add(carom_scale(m->linear_damping, state->linear_velocity),
                                           m->linear_increment);
        state->angular_velocity = m->angular_damping * state->angular_velocity +
                                  m->angular_increment;
    }
}

/* Turn a rotation by a substep's small angle: first order, then brought back to unit length.
 * The rotation turned this step starts each step at the identity and lives for a few substeps
 * (the body's own rotation is normalised exactly once per step, in finalize_bodies). For the
 * angles of all but the fastest spins, the length is restored by the series
 * 1/sqrt(1 + e) = 1 - e/2 + 3e^2/8 - 5e^3/16, with e = angle^2, rather than by a square root and
 * a division, which were the throughput limit of this loop: the length is then off by at most
 * 35/128 e^4, 3e-9 at the bound of 0.1 rad a substep (24 rad/s at 240 substeps a second), 7e-15
 * at 0.02 rad. Beyond the bound, where the series would stray, the exact division is kept. */
static CAROM_FORCE_INLINE carom_rot turn_rotation(carom_rot q, double angle) {
    carom_rot turned = {q.c - angle * q.s, q.s + angle * q.c};
    double e = turned.c * turned.c + turned.s * turned.s - 1.0;
    if (!(fabs(e) <= 0.01)) {
        return carom_normalize_rot(turned);
    }
    double scale = 1.0 + e * (-0.5 + e * (0.375 - 0.3125 * e));
    turned.c *= scale;
    turned.s *= scale;
    return turned;
}

static void integrate_positions(carom_world* world, double h) {
    carom_solver* solver = &world->solver;
    int count = solver->moving_count;
    for (int i = 0; i < count; ++i) {
        carom_body_state* state = &solver->states[i];
        state->delta_position = carom_mul_add(state->delta_position, h, state->linear_velocity);
        state->delta_rotation = turn_rotation(state->delta_rotation, h * state->angular_velocity);
        state->delta_angle += h * state->angular_velocity;
    }
}

/* The solver's inner loops copy the two bodies' velocities into locals, work on them, and
 * write them back once per constraint: far fewer loads and stores than going through the state
 * array for every impulse. A static body's state is the shared rest state at the end of the
 * array; with zero inverse mass, the impulses leave it at rest. */
typedef struct local_velocities {
    carom_vec2 va, vb;
    double wa, wb;
} local_velocities;

static CAROM_FORCE_INLINE local_velocities load_velocities(const carom_body_state* a,
                                                           const carom_body_state* b) {
    local_velocities v = {a->linear_velocity, b->linear_velocity, a->angular_velocity,
                          b->angular_velocity};
    return v;
}

static CAROM_FORCE_INLINE void store_velocities(carom_body_state* a, carom_body_state* b,
                                                const local_velocities* v) {
    a->linear_velocity = v->va;
    a->angular_velocity = v->wa;
    b->linear_velocity = v->vb;
    b->angular_velocity = v->wb;
}

static CAROM_FORCE_INLINE void apply_impulse(local_velocities* v, const carom_contact_constraint* c,
                                             const carom_constraint_point* cp, carom_vec2 impulse) {
    v->va = carom_mul_sub(v->va, c->inv_mass_a, impulse);
    v->wa -= c->inv_inertia_a * carom_cross(cp->anchor_a, impulse);
    v->vb = carom_mul_add(v->vb, c->inv_mass_b, impulse);
    v->wb += c->inv_inertia_b * carom_cross(cp->anchor_b, impulse);
}

/* Velocity of anchor b relative to anchor a. */
static CAROM_FORCE_INLINE carom_vec2 relative_velocity(const local_velocities* v,
                                                       const carom_constraint_point* cp) {
    carom_vec2 va = carom_add(v->va, carom_cross_sv(v->wa, cp->anchor_a));
    carom_vec2 vb = carom_add(v->vb, carom_cross_sv(v->wb, cp->anchor_b));
    return carom_sub(vb, va);
}

static void warm_start(carom_world* world) {
    carom_solver* solver = &world->solver;
    for (int i = 0; i < (int)arrlen(solver->constraints); ++i) {
        const carom_contact_constraint* c = &solver->constraints[i];
        carom_body_state* a = &solver->states[c->state_a];
        carom_body_state* b = &solver->states[c->state_b];
        local_velocities v = load_velocities(a, b);
        carom_vec2 tangent = carom_right_perp(c->normal);
        for (int j = 0; j < c->point_count; ++j) {
            const carom_constraint_point* cp = &c->points[j];
            if (cp->normal_impulse == 0.0 && cp->tangent_impulse == 0.0) {
                continue; /* a speculative point that never pushed: nothing to apply */
            }
            carom_vec2 impulse = carom_add(carom_scale(cp->normal_impulse, c->normal),
                                           carom_scale(cp->tangent_impulse, tangent));
            apply_impulse(&v, c, cp, impulse);
        }
        store_velocities(a, b, &v);
    }
}

/* How the bodies' motion since the start of the step changes a constraint's separations:
 *   s = s0 + n . (dpB - dpA) + n . (R(dqB) rB - rB) - n . (R(dqA) rA - rA)
 * and n . (R(q) r - r) = (R(q)^T n - n) . r, so per constraint it suffices to turn the normal
 * back by each body's rotation once; per point two dot products remain. */
typedef struct separation_change {
    double shift;        /* n . (dpB - dpA) */
    carom_vec2 turn_a;   /* R(dqA)^T n - n */
    carom_vec2 turn_b;   /* R(dqB)^T n - n */
} separation_change;

static CAROM_FORCE_INLINE separation_change separation_change_of(
    const carom_body_state* a, const carom_body_state* b, const carom_contact_constraint* c) {
    separation_change change;
    change.shift = carom_dot(c->normal, carom_sub(b->delta_position, a->delta_position));
    change.turn_a = carom_sub(carom_inv_rotate(a->delta_rotation, c->normal), c->normal);
    change.turn_b = carom_sub(carom_inv_rotate(b->delta_rotation, c->normal), c->normal);
    return change;
}

/* Current separation of a point from the bodies' motion since the start of the step. */
static CAROM_FORCE_INLINE double current_separation(const separation_change* change,
                                                    const carom_constraint_point* cp) {
    return cp->base_separation + change->shift + carom_dot(change->turn_b, cp->anchor_b) -
           carom_dot(change->turn_a, cp->anchor_a);
}

/* The world's contact settings for one pass, read once. */
typedef struct solve_settings {
    double inv_h;
    double slop;
    double max_push;
    bool use_bias;
} solve_settings;

/* How a point is pushed this iteration: a speculative gap is closed rigidly, a penetration is
 * corrected softly (only with use_bias), and the relax pass pushes without bias. */
typedef struct point_drive {
    double bias, mass_scale, impulse_scale;
} point_drive;

static CAROM_FORCE_INLINE point_drive drive_point(const separation_change* change,
                                                  const carom_contact_constraint* c,
                                                  const carom_constraint_point* cp,
                                                  const solve_settings* settings) {
    point_drive drive = {0.0, 1.0, 0.0};
    double s = current_separation(change, cp);
    if (s > 0.0) {
        drive.bias = s * settings->inv_h; /* speculative: close the gap, no further */
    } else if (settings->use_bias) {
        double penetration = s + settings->slop < 0.0 ? s + settings->slop : 0.0;
        drive.bias = c->softness.bias_rate * penetration;
        if (drive.bias < -settings->max_push) {
            drive.bias = -settings->max_push;
        }
        drive.mass_scale = c->softness.mass_scale;
        drive.impulse_scale = c->softness.impulse_scale;
    }
    return drive;
}

/* Both normal impulses of a two-point manifold at once. False (and nothing applied) when the
 * points are driven differently or the joint solution would pull, so the caller falls back to
 * one point at a time, which clamps each. */
static CAROM_FORCE_INLINE bool solve_normal_block(local_velocities* v, carom_contact_constraint* c,
                                                  const point_drive* drive) {
    if (!c->block_solve || drive[0].mass_scale != drive[1].mass_scale ||
        drive[0].impulse_scale != drive[1].impulse_scale) {
        return false;
    }
    carom_constraint_point* p1 = &c->points[0];
    carom_constraint_point* p2 = &c->points[1];
    double rhs1 = carom_dot(relative_velocity(v, p1), c->normal) + drive[0].bias;
    double rhs2 = carom_dot(relative_velocity(v, p2), c->normal) + drive[1].bias;
    double ms = drive[0].mass_scale;
    double is = drive[0].impulse_scale;
    double impulse1 = -ms * (c->inv_k11 * rhs1 + c->inv_k12 * rhs2) - is * p1->normal_impulse;
    double impulse2 = -ms * (c->inv_k12 * rhs1 + c->inv_k22 * rhs2) - is * p2->normal_impulse;
    if (p1->normal_impulse + impulse1 < 0.0 || p2->normal_impulse + impulse2 < 0.0) {
        return false;
    }
    p1->normal_impulse += impulse1;
    p2->normal_impulse += impulse2;
    if (impulse1 > p1->max_normal_impulse) {
        p1->max_normal_impulse = impulse1;
    }
    if (impulse2 > p2->max_normal_impulse) {
        p2->max_normal_impulse = impulse2;
    }
    apply_impulse(v, c, p1, carom_scale(impulse1, c->normal));
    apply_impulse(v, c, p2, carom_scale(impulse2, c->normal));
    return true;
}

static CAROM_FORCE_INLINE void solve_normal_point(local_velocities* v, carom_contact_constraint* c,
                                                  carom_constraint_point* cp, point_drive drive) {
    double vn = carom_dot(relative_velocity(v, cp), c->normal);
    double impulse = -cp->normal_mass * drive.mass_scale * (vn + drive.bias) -
                     drive.impulse_scale * cp->normal_impulse;
    double total = cp->normal_impulse + impulse;
    if (total < 0.0) {
        total = 0.0;
    }
    impulse = total - cp->normal_impulse;
    cp->normal_impulse = total;
    if (impulse > cp->max_normal_impulse) {
        cp->max_normal_impulse = impulse;
    }
    if (impulse != 0.0) { /* most often a speculative point held at zero */
        apply_impulse(v, c, cp, carom_scale(impulse, c->normal));
    }
}

static CAROM_FORCE_INLINE void solve_friction(local_velocities* v, carom_contact_constraint* c,
                                              int point_count) {
    carom_vec2 tangent = carom_right_perp(c->normal);
    for (int j = 0; j < point_count; ++j) {
        carom_constraint_point* cp = &c->points[j];
        if (cp->normal_impulse == 0.0 && cp->tangent_impulse == 0.0) {
            continue; /* no normal force allows no friction, and none is held: nothing to do */
        }
        double vt = carom_dot(relative_velocity(v, cp), tangent);
        double impulse = -cp->tangent_mass * vt;
        double max_friction = c->friction * cp->normal_impulse;
        double total = cp->tangent_impulse + impulse;
        total = total < -max_friction ? -max_friction : (total > max_friction ? max_friction : total);
        impulse = total - cp->tangent_impulse;
        cp->tangent_impulse = total;
        if (impulse != 0.0) {
            apply_impulse(v, c, cp, carom_scale(impulse, tangent));
        }
    }
}

/* One constraint, with its point count a constant where it is inlined, so that the compiler
 * unrolls the point loops and keeps the velocities and drives in registers. */
static CAROM_FORCE_INLINE void solve_constraint(carom_body_state* states,
                                                carom_contact_constraint* c,
                                                const solve_settings* settings, int point_count) {
    carom_body_state* a = &states[c->state_a];
    carom_body_state* b = &states[c->state_b];
    local_velocities v = load_velocities(a, b);
    separation_change change = separation_change_of(a, b, c);
    point_drive drive[2];
    for (int j = 0; j < point_count; ++j) {
        drive[j] = drive_point(&change, c, &c->points[j], settings);
    }
    if (point_count != 2 || !solve_normal_block(&v, c, drive)) {
        for (int j = 0; j < point_count; ++j) {
            solve_normal_point(&v, c, &c->points[j], drive[j]);
        }
    }
    solve_friction(&v, c, point_count);
    store_velocities(a, b, &v);
}

static void solve_contacts(carom_world* world, const solve_settings* settings) {
    carom_solver* solver = &world->solver;
    for (int i = 0; i < (int)arrlen(solver->constraints); ++i) {
        carom_contact_constraint* c = &solver->constraints[i];
        if (c->point_count == 1) {
            solve_constraint(solver->states, c, settings, 1);
        } else {
            solve_constraint(solver->states, c, settings, 2);
        }
    }
}

/* Bounce: drive each approaching point's normal velocity to -restitution times the approach
 * speed measured before the solve, if that speed was above the threshold and the point pushed. */
static void apply_restitution(carom_world* world) {
    carom_solver* solver = &world->solver;
    double threshold = world->def.restitution_threshold;
    for (int i = 0; i < (int)arrlen(solver->constraints); ++i) {
        carom_contact_constraint* c = &solver->constraints[i];
        if (c->restitution == 0.0) {
            continue;
        }
        carom_body_state* a = &solver->states[c->state_a];
        carom_body_state* b = &solver->states[c->state_b];
        local_velocities v = load_velocities(a, b);
        for (int j = 0; j < c->point_count; ++j) {
            carom_constraint_point* cp = &c->points[j];
            if (cp->relative_velocity > -threshold || cp->max_normal_impulse == 0.0) {
                continue;
            }
            double vn = carom_dot(relative_velocity(&v, cp), c->normal);
            double impulse = -cp->normal_mass * (vn + c->restitution * cp->relative_velocity);
            double total = cp->normal_impulse + impulse;
            if (total < 0.0) {
                total = 0.0;
            }
            impulse = total - cp->normal_impulse;
            cp->normal_impulse = total;
            apply_impulse(&v, c, cp, carom_scale(impulse, c->normal));
        }
        store_velocities(a, b, &v);
    }
}

/* Whether any live shape asks for hit events, counted again only when the scene changed. */
static bool any_hit_event_shapes(carom_world* world) {
    if (world->hit_event_shapes_revision != world->scene_revision) {
        int count = 0;
        for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
            count += world->shapes[i].id >= 0 && world->shapes[i].enable_hit_events;
        }
        world->hit_event_shapes = count;
        world->hit_event_shapes_revision = world->scene_revision;
    }
    return world->hit_event_shapes > 0;
}

/* Hit events: for contacts whose shapes ask for them, the point that approached fastest, if it
 * pushed and approached faster than the lower threshold of the shapes that report. */
static void report_hits(carom_world* world) {
    carom_solver* solver = &world->solver;
    if (!any_hit_event_shapes(world)) {
        return; /* the pass below would read two shapes per constraint to find none */
    }
    for (int i = 0; i < (int)arrlen(solver->constraints); ++i) {
        const carom_contact_constraint* c = &solver->constraints[i];
        const carom_contact* contact = &world->contacts[c->contact];
        const carom_shape* a = &world->shapes[contact->shape_a];
        const carom_shape* b = &world->shapes[contact->shape_b];
        if (!a->enable_hit_events && !b->enable_hit_events) {
            continue;
        }
        double threshold = !a->enable_hit_events ? b->hit_speed_threshold
                           : !b->enable_hit_events
                               ? a->hit_speed_threshold
                               : carom_min_d(a->hit_speed_threshold, b->hit_speed_threshold);
        int best = -1;
        double best_speed = threshold;
        for (int j = 0; j < c->point_count; ++j) {
            double speed = -c->points[j].relative_velocity;
            if (c->points[j].max_normal_impulse > 0.0 && speed > best_speed) {
                best = j;
                best_speed = speed;
            }
        }
        if (best >= 0) {
            carom_contact_hit_event event = {carom_make_shape_id(world, a),
                                             carom_make_shape_id(world, b),
                                             contact->points[best].point, c->normal, best_speed};
            arrput(world->hit_events, event);
        }
    }
}

static void store_impulses(carom_world* world) {
    carom_solver* solver = &world->solver;
    for (int i = 0; i < (int)arrlen(solver->constraints); ++i) {
        const carom_contact_constraint* c = &solver->constraints[i];
        carom_contact* contact = &world->contacts[c->contact];
        for (int j = 0; j < c->point_count; ++j) {
            contact->points[j].normal_impulse = c->points[j].normal_impulse;
            contact->points[j].tangent_impulse = c->points[j].tangent_impulse;
        }
    }
}

/* Write the states back to the bodies, advance their rest timers, derive their origins, and
 * refresh bounding boxes. */
static void finalize_bodies(carom_world* world, double dt) {
    carom_solver* solver = &world->solver;
    for (int i = 0; i < solver->moving_count; ++i) {
        const carom_body_state* state = &solver->states[i];
        carom_body* body = &world->bodies[solver->state_bodies[i]];
        carom_vec2 old_linear_velocity = body->linear_velocity;
        double old_angular_velocity = body->angular_velocity;
        body->sweep.local_center = body->local_center;
        body->sweep.c1 = body->center;
        body->sweep.q1 = body->transform.q;
        body->sweep.delta_angle = state->delta_angle;
        body->linear_velocity = state->linear_velocity;
        body->angular_velocity = state->angular_velocity;
        carom_sleep_update_timer(world, body, old_linear_velocity, old_angular_velocity, dt);
        body->center = carom_add(body->center, state->delta_position);
        body->transform.q =
            carom_normalize_rot(carom_mul_rot(state->delta_rotation, body->transform.q));
        carom_body_derive_origin(body);
        body->sweep.c2 = body->center;
        body->force = carom_v2(0.0, 0.0);
        body->torque = 0.0;
        carom_body_update_shape_bounds(world, body, state->delta_position);
    }
}

void carom_solver_step(carom_world* world, double dt) {
    int substeps = world->def.substeps;
    double h = dt / substeps;
    gather_bodies(world, h);
    prepare_contacts(world, h);
    solve_settings bias_pass = {1.0 / h, world->def.contact_slop,
                                world->def.contact_push_max_velocity, true};
    solve_settings relax_pass = bias_pass;
    relax_pass.use_bias = false;
    for (int i = 0; i < substeps; ++i) {
        integrate_velocities(world);
        warm_start(world);
        solve_contacts(world, &bias_pass);
        integrate_positions(world, h);
        solve_contacts(world, &relax_pass);
    }
    apply_restitution(world);
    report_hits(world);
    store_impulses(world);
    finalize_bodies(world, dt);
}
