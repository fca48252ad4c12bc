/* Sleep: islands of resting bodies stop costing anything.
 *
 * After each solve every dynamic body's rest timer advances while it moves slower than the
 * world's sleep_linear_threshold, and resets otherwise; when a rest begins, the body's kinetic
 * energy is noted. A body's speed here is that of its farthest point: its center's speed plus
 * its spin times its extent (a ball rolling at v counts 2v), or half of its step's motion over
 * dt where that is more (Box2D v3's test, so that both engines let the same bodies sleep at the
 * same threshold). Before, the speed was the larger of the center's and the spin's part, and a
 * body also had to turn slower than sleep_angular_threshold (2 degrees per second): a 1 m ball
 * rolling at 2 cm/s could not sleep, and the 1,000-ball rain's last rolling ball woke its
 * settled pile (asleep whole after 479 steps; now 271, Box2D v3 302). sleep_angular_threshold
 * is now off (0) by default and, set above 0, adds its spin limit to the test.
 *
 * Slow is not the same as resting: a ball balanced a millimetre off an apex is slower than any
 * threshold for most of a second while it is already falling off, and must not be frozen there
 * (SOLVER-NOTES). What tells it from a settling pile is energy: the ball gains kinetic energy
 * the whole time (gravity does work on it), while a pile's bodies jiggle about their rest with
 * a dwindling total. So an island sleeps only when, besides every body having rested for
 * time_to_sleep, its bodies' kinetic energy now is no more than it was when their rests began.
 * An island held awake by that test then compares against the highest energy seen at its checks
 * (body->rest_energy is raised to it): energy gained once, by a push during the rest or a roll
 * down a slight slope, no longer counts as falling once it stops growing. Counted from the rests'
 * start forever, it kept a ball rolling on at 1 cm/s awake for good, and with it every pile it
 * later rolled into (the 2,000-ball rain slept after 1,164 steps; now after 430).
 * This replaced a per-step test on each body's acceleration (reset the timer when the velocity
 * changed faster than threshold / time_to_sleep), which the jiggle of a settling pile tripped
 * for seconds: the 40-row pyramid slept after 4.1 s; it now sleeps after 1.68 s, and the ball
 * still rolls off.
 *
 * Only awake bodies and the contacts of awake bodies are visited (world->awake_bodies,
 * world->awake_contacts), so a world asleep costs nothing here.
 *
 * Islands are found afresh each step by union-find over touching contacts and joints between
 * awake dynamic bodies (static and kinematic bodies do not join islands: a floor does not tie
 * every pile on it together, nor a wall every door hinged to it), so a jointed pile sleeps and
 * wakes as one. Union always keeps the smaller body id as root and islands are visited
 * in body-id order, so the result does not depend on anything but the world's state. An island
 * whose every body has rested for time_to_sleep goes to sleep as one: velocities zeroed, bodies
 * skipped by the solver, contacts among them skipped by the narrow phase, and its members kept
 * in a sleeping-island record so that waking any one wakes them all.
 *
 * Waking happens in the narrow phase (an active body touches a sleeping one), and through the
 * API (a body is changed, or something it rests on is moved or destroyed). */
#include "core.h"

#include "ds.h"
#include "sleep.h"
#include "world.h"

#include <math.h>

static double kinetic_energy(const carom_body* body) {
    return 0.5 * (body->mass * carom_length_squared(body->linear_velocity) +
                  body->inertia * body->angular_velocity * body->angular_velocity);
}

/* Whether a rest of sleep_time covers time_to_sleep. The rest is a sum of step lengths, which
 * rounds: thirty steps of 1/60 s add up to 0.49999999999999994 s in doubles, and compared
 * exactly with 0.5 s every island waited a 31st step (Box2D v3, summing floats, reaches 0.5 s in
 * 30). A billionth of time_to_sleep is far more than the rounding of any number of steps and
 * far less than any step. */
static bool rested_long_enough(const carom_world* world, double sleep_time) {
    const double time_to_sleep = world->def.time_to_sleep;
    return sleep_time >= time_to_sleep - 1e-9 * time_to_sleep;
}

unsigned carom_sleep_update_timer(const carom_world* world, carom_body* body,
                                  carom_vec2 delta_position, double delta_angle, double dt) {
    const carom_world_def* def = &world->def;
    if (!def->enable_sleep || !body->enable_sleep || body->type != CAROM_BODY_DYNAMIC) {
        body->sleep_time = 0.0;
        return body->type == CAROM_BODY_KINEMATIC ? CAROM_REST_KINEMATIC : 0u;
    }
    double spin = fabs(body->angular_velocity);
    double point_speed = carom_length(body->linear_velocity) + spin * body->max_extent;
    bool spins_too_fast = def->sleep_angular_threshold > 0.0 && spin > def->sleep_angular_threshold;
    /* a body the contacts push out of an overlap moves with little velocity (the relax pass
     * takes the push's velocity back): half of its step's motion also counts as speed. Tested
     * second, so that a moving body (most of them) costs one square root. */
    if (point_speed > def->sleep_linear_threshold || spins_too_fast ||
        0.5 * (carom_length(delta_position) + fabs(delta_angle) * body->max_extent) / dt >
            def->sleep_linear_threshold) {
        body->sleep_time = 0.0;
        return 0u;
    }
    if (body->sleep_time == 0.0) {
        body->rest_energy = kinetic_energy(body);
    }
    body->sleep_time += dt;
    return rested_long_enough(world, body->sleep_time) ? CAROM_REST_READY : 0u;
}

/* The kinetic energy a resting body gained since its rest began. A body slower than a millionth
 * of the sleep threshold gains nothing worth noting: a hanging body at rest on a joint settles
 * on a velocity like 1e-30 m/s after starting its rest at exactly 0, and that "gain" of 1e-61 J
 * must not keep its island awake forever (a ball rolling off an apex gains millijoules). */
static double energy_gain(const carom_world* world, const carom_body* body) {
    double energy = kinetic_energy(body);
    double negligible_speed = 1e-6 * world->def.sleep_linear_threshold;
    double gain = energy - body->rest_energy;
    if (energy <= 0.5 * body->mass * negligible_speed * negligible_speed && gain > 0.0) {
        gain = 0.0;
    }
    return gain;
}

static int find_root(int* parent, int i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void join(int* parent, int a, int b) {
    int ra = find_root(parent, a);
    int rb = find_root(parent, b);
    if (ra < rb) {
        parent[rb] = ra;
    } else if (rb < ra) {
        parent[ra] = rb;
    }
}

static bool awake_dynamic(const carom_body* body) {
    return body->id >= 0 && body->type == CAROM_BODY_DYNAMIC && !body->asleep;
}

/* Link two bodies that touch or are joined (parent NULL: no linking); a body linked to a moving
 * kinematic body cannot rest. */
static void link_pair(int* parent, carom_body* a, carom_body* b) {
    if (awake_dynamic(a) && awake_dynamic(b)) {
        if (parent != NULL) {
            join(parent, a->id, b->id);
        }
    } else if (awake_dynamic(a) && b->type == CAROM_BODY_KINEMATIC && carom_body_is_active(b)) {
        a->sleep_time = 0.0;
    } else if (awake_dynamic(b) && a->type == CAROM_BODY_KINEMATIC && carom_body_is_active(a)) {
        b->sleep_time = 0.0;
    }
}

/* Link bodies by touching contacts and by joints (a mouse joint ties its body to nothing). */
static void link_islands(carom_world* world, int* parent) {
    for (int k = 0; k < (int)arrlen(world->awake_contacts); ++k) {
        const carom_contact* contact = &world->contacts[world->awake_contacts[k]];
        if (contact->point_count == 0 || contact->is_sensor) {
            continue;
        }
        link_pair(parent, &world->bodies[contact->edges[0].body],
                  &world->bodies[contact->edges[1].body]);
    }
    int joint_count = carom_joints_refresh_awake(world);
    for (int k = 0; k < joint_count; ++k) {
        const carom_joint* joint = &world->joints[world->awake_joints[k]];
        if (joint->edges[0].body >= 0) {
            link_pair(parent, &world->bodies[joint->edges[0].body],
                      &world->bodies[joint->edges[1].body]);
        }
    }
}

static int new_island(carom_world* world) {
    int id = carom_id_pool_alloc(&world->island_pool);
    if (id == (int)arrlen(world->islands)) {
        carom_island blank = {-1, NULL};
        arrput(world->islands, blank);
    }
    world->islands[id].id = id;
    arrsetlen(world->islands[id].bodies, 0);
    return id;
}

static void put_to_sleep(carom_world* world, carom_body* body, int island) {
    body->asleep = true;
    world->awake_revision += 1;
    body->island = island;
    body->linear_velocity = carom_v2(0.0, 0.0);
    body->angular_velocity = 0.0;
    body->sleep_time = 0.0; /* unread while asleep and reset on waking: zero keeps snapshots short */
    body->rest_energy = 0.0;
    arrput(world->islands[island].bodies, body->id);
}

#if CAROM_ASSERTS_ON
/* rests_of_step's answer from the awake bodies themselves. */
static unsigned rests_of_awake_bodies(const carom_world* world) {
    unsigned rests = 0;
    for (int k = 0; k < (int)arrlen(world->awake_bodies); ++k) {
        const carom_body* body = &world->bodies[world->awake_bodies[k]];
        bool ready = awake_dynamic(body) && rested_long_enough(world, body->sleep_time);
        rests |= (ready ? CAROM_REST_READY : 0u) |
                 (body->type == CAROM_BODY_KINEMATIC ? CAROM_REST_KINEMATIC : 0u);
    }
    return rests;
}
#endif

/* Whether any awake dynamic body has rested long enough to sleep (CAROM_REST_READY) and whether
 * any kinematic body is awake (CAROM_REST_KINEMATIC), from what the solver's finalization noted
 * of its states (world->rest_flags), one byte a state: visiting the awake bodies to find out
 * read two cache lines of each, every step of a settling pile. The awake bodies now are the
 * solver's states but for bodies woken since (a joint that broke wakes its bodies), whose rest
 * is 0: neither ready nor kinematic. */
static unsigned rests_of_step(const carom_world* world) {
    unsigned rests = 0;
    for (int k = 0; k < (int)arrlen(world->rest_flags); ++k) {
        rests |= world->rest_flags[k];
    }
    CAROM_ASSERT(rests == rests_of_awake_bodies(world));
    return rests;
}

void carom_sleep_step(carom_world* world) {
    if (!world->def.enable_sleep) {
        return;
    }
    /* An island sleeps only when its every body is ready, so while none is (a world in motion)
     * the islands need not be found: only the kinematic rule below still applies. */
    carom_refresh_awake_lists(world);
    unsigned rests = rests_of_step(world);
    if (!(rests & CAROM_REST_READY)) {
        if (rests & CAROM_REST_KINEMATIC) {
            link_islands(world, NULL);
        }
        return;
    }
    /* Indexed by body id, but only awake dynamic bodies' entries are written or read (the
     * others join no island), so only the awake bodies are visited, in id order as the list
     * is: a world half asleep pays for its awake half. */
    int count = (int)arrlen(world->bodies);
    arrsetlen(world->sleep_parent, count);
    arrsetlen(world->sleep_min_time, count);
    arrsetlen(world->sleep_energy_gain, count);
    arrsetlen(world->sleep_island_of_root, count);
    int* parent = world->sleep_parent;
    const int* awake = world->awake_bodies;
    int awake_count = (int)arrlen(world->awake_bodies);
    for (int k = 0; k < awake_count; ++k) {
        int i = awake[k];
        parent[i] = i;
        world->sleep_min_time[i] = INFINITY;
        world->sleep_energy_gain[i] = 0.0;
        world->sleep_island_of_root[i] = -1;
    }
    link_islands(world, parent);
    for (int k = 0; k < awake_count; ++k) {
        int i = awake[k];
        if (awake_dynamic(&world->bodies[i])) {
            int root = find_root(parent, i);
            world->sleep_min_time[root] = carom_min_d(world->sleep_min_time[root],
                                               world->bodies[i].sleep_time);
            world->sleep_energy_gain[root] += energy_gain(world, &world->bodies[i]);
        }
    }
    for (int k = 0; k < awake_count; ++k) {
        carom_body* body = &world->bodies[awake[k]];
        if (!awake_dynamic(body)) {
            continue;
        }
        int root = find_root(parent, body->id);
        if (!rested_long_enough(world, world->sleep_min_time[root])) {
            continue; /* not all rested long enough */
        }
        if (world->sleep_energy_gain[root] > 0.0) {
            /* gaining energy: still falling, or pushed during the rest; from now on a gain
             * counts only above the highest energy seen at a check */
            body->rest_energy = carom_max_d(body->rest_energy, kinetic_energy(body));
            continue;
        }
        if (world->sleep_island_of_root[root] < 0) {
            world->sleep_island_of_root[root] = new_island(world);
        }
        put_to_sleep(world, body, world->sleep_island_of_root[root]);
    }
}

void carom_sleep_alone(carom_world* world, carom_body* body) {
    put_to_sleep(world, body, new_island(world));
}

bool carom_sleeps_alone_untouched(const carom_world* world, const carom_body* body) {
    return body->asleep && arrlen(world->islands[body->island].bodies) == 1 &&
           body->contact_count == 0;
}

void carom_wake_body(carom_world* world, carom_body* body) {
    if (!body->asleep) {
        return;
    }
    world->wake_count += 1;
    world->awake_revision += 1;
    int island_id = body->island;
    carom_island* island = &world->islands[island_id];
    for (int i = 0; i < (int)arrlen(island->bodies); ++i) {
        carom_body* member = &world->bodies[island->bodies[i]];
        member->asleep = false;
        member->island = -1;
        member->sleep_time = 0.0;
    }
    arrsetlen(island->bodies, 0);
    island->id = -1;
    carom_id_pool_free(&world->island_pool, island_id);
}

void carom_wake_touching(carom_world* world, carom_body* body) {
    int count = carom_collect_body_contacts(world, body);
    for (int i = 0; i < count; ++i) {
        const carom_contact* contact = &world->contacts[world->body_contacts[i]];
        int other = contact->edges[0].body == body->id ? contact->edges[1].body
                                                       : contact->edges[0].body;
        if (contact->point_count > 0) {
            carom_wake_body(world, &world->bodies[other]);
        }
    }
}

void carom_sleep_destroy(carom_world* world) {
    for (int i = 0; i < (int)arrlen(world->islands); ++i) {
        arrfree(world->islands[i].bodies);
    }
    arrfree(world->islands);
    carom_id_pool_destroy(&world->island_pool);
    arrfree(world->sleep_parent);
    arrfree(world->sleep_min_time);
    arrfree(world->sleep_energy_gain);
    arrfree(world->sleep_island_of_root);
}
