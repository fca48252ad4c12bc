/* The narrow phase: one contact per pair of shapes whose fattened boxes overlap.
 *
 * A contact is born when the broad phase reports a new pair and dies when the pair's fat boxes
 * part. In between, every step recomputes its manifold by the separating axis tests of sat.c
 * and carries each point's accumulated impulses over when the new point has the same feature
 * id, which is what lets the solver warm start.
 *
 * Contacts live in an array indexed by contact id and are visited in id order; ids are handed
 * out by an id pool in a fixed order, so the visiting order depends only on the history of
 * calls. Each contact is linked into both bodies' contact lists, so destroying a body or shape
 * finds its contacts without a search.
 *
 * Shape order inside a contact: circle-circle, polygon-circle and polygon-polygon are the basic
 * tests (a segment is a two-vertex polygon, a capsule one with a radius, and a rounded polygon a
 * polygon with a radius: sat_rounded.c), so a circle is always shape B unless both are
 * circles; a chain segment is always A, because its tests correct the segment's result from A's
 * side; otherwise the lower shape id is A. The normal points from A to B. Sensor contacts are
 * tracked like the others but never reach the solver.
 *
 * Events: a contact's `touching` flag says what its events have reported. It is compared after
 * each update with whether the manifold has a point within CAROM_TOUCHING_DISTANCE (for a
 * sensor, overlap), and a change is recorded as a begin or end event in contact-id order; a
 * touching contact that is destroyed records its end. A contact whose points are all farther
 * apart than that but still speculative goes to the solver, which may close the gap and push
 * within the step: a fast glancing blow often begins and ends inside one step. Its flag is left
 * for the solver's stage to settle (settle_touching in solver.c): it touched if the solver
 * pushed, and then its begin (and its hit) is reported in the same step, its end at the next. */
#include "core.h"

#include "ds.h"
#include "sat.h"
#include "world.h"

#include <math.h>
#include <string.h>

static void link_edge(carom_world* world, carom_contact* contact, int edge_index) {
    carom_body* body = &world->bodies[contact->edges[edge_index].body];
    int key = (contact->id << 1) | edge_index;
    contact->edges[edge_index].prev_key = -1;
    contact->edges[edge_index].next_key = body->contact_head;
    if (body->contact_head >= 0) {
        carom_contact* head = &world->contacts[body->contact_head >> 1];
        head->edges[body->contact_head & 1].prev_key = key;
    }
    body->contact_head = key;
    body->contact_count += 1;
}

static void unlink_edge(carom_world* world, carom_contact* contact, int edge_index) {
    carom_contact_edge* edge = &contact->edges[edge_index];
    carom_body* body = &world->bodies[edge->body];
    if (edge->prev_key >= 0) {
        world->contacts[edge->prev_key >> 1].edges[edge->prev_key & 1].next_key = edge->next_key;
    } else {
        body->contact_head = edge->next_key;
    }
    if (edge->next_key >= 0) {
        world->contacts[edge->next_key >> 1].edges[edge->next_key & 1].prev_key = edge->prev_key;
    }
    body->contact_count -= 1;
}

/* A new contact's id, marked as created. The contact array makes room for it afterwards
 * (make_room_for_contacts). */
static int claim_contact_id(carom_world* world) {
    int id = carom_id_pool_alloc(&world->contact_pool);
    carom_mark_contact_changed(world, id, CAROM_CONTACT_CREATED);
    return id;
}

/* The contact array long enough for every id claimed, grown once for a batch of new contacts.
 * The slots it adds are left unwritten: each is a contact just claimed (the pool hands out ids
 * past the array's end in order), which fill_new_contact clears whole. Clearing them here too
 * wrote every new contact twice, the first time on the stepping thread: the first step of a
 * 22,000-box scene makes 58,000 contacts, 19 MB written twice. */
static void make_room_for_contacts(carom_world* world) {
    if (world->contact_pool.next_id > (int)arrlen(world->contacts)) {
        arrsetlen(world->contacts, world->contact_pool.next_id);
    }
}

/* The fields of new contact `id` for the pair: writes this contact only. */
static void fill_new_contact(carom_world* world, int id, int shape_a, int shape_b) {
    int rank_a = carom_contact_rank(world->shapes[shape_a].type);
    int rank_b = carom_contact_rank(world->shapes[shape_b].type);
    if (rank_a > rank_b || (rank_a == rank_b && shape_a > shape_b)) {
        int swap = shape_a;
        shape_a = shape_b;
        shape_b = swap;
    }
    carom_contact* contact = &world->contacts[id];
    memset(contact, 0, sizeof(*contact));
    contact->id = id;
    contact->shape_a = shape_a;
    contact->shape_b = shape_b;
    contact->is_sensor = world->shapes[shape_a].is_sensor || world->shapes[shape_b].is_sensor;
    contact->reports_touch = carom_shapes_report_touch(&world->shapes[shape_a],
                                                       &world->shapes[shape_b]);
    contact->edges[0].body = world->shapes[shape_a].body;
    contact->edges[1].body = world->shapes[shape_b].body;
}

/* A filled contact joins its bodies' contact lists and the pair map, which are shared. */
static void attach_contact(carom_world* world, carom_contact* contact) {
    link_edge(world, contact, 0);
    link_edge(world, contact, 1);
    carom_hash_map_set(&world->pair_map, carom_contact_pair_key(contact), contact->id);
}

typedef struct fill_task {
    carom_world* world;
    const uint64_t* keys;
    const int* ids;
} fill_task;

static void fill_new_contacts(int begin, int end, int worker, void* context) {
    (void)worker;
    const fill_task* task = context;
    for (int i = begin; i < end; ++i) {
        fill_new_contact(task->world, task->ids[i], carom_pair_key_low(task->keys[i]),
                         carom_pair_key_high(task->keys[i]));
    }
}

/* New contacts per range handed to a worker. */
#define NEW_CONTACTS_PER_RANGE 128

/* How many contacts ahead attach_contacts fetches what an attachment reads and writes: the
 * contact, then its bodies (whose contact lists it joins) and its pair-map slot. A stirred pile
 * makes thousands of contacts a step, each a few cache misses. */
#define ATTACH_PREFETCH_AHEAD 4

static void attach_contacts(carom_world* world, const int* ids, int count) {
    carom_hash_map_reserve(&world->pair_map, world->pair_map.count + count);
    for (int i = 0; i < count; ++i) {
        if (i + 2 * ATTACH_PREFETCH_AHEAD < count) {
            __builtin_prefetch(&world->contacts[ids[i + 2 * ATTACH_PREFETCH_AHEAD]]);
        }
        if (i + ATTACH_PREFETCH_AHEAD < count) {
            const carom_contact* ahead = &world->contacts[ids[i + ATTACH_PREFETCH_AHEAD]];
            __builtin_prefetch(&world->bodies[ahead->edges[0].body], 1);
            __builtin_prefetch(&world->bodies[ahead->edges[1].body], 1);
            carom_hash_map_prefetch(&world->pair_map, carom_contact_pair_key(ahead));
        }
        attach_contact(world, &world->contacts[ids[i]]);
    }
}

/* In three passes, which do what creating the contacts one after the other would: the ids,
 * claimed in pair order on this thread (cheap); each contact's fields, on the workers (the
 * reads of the shapes and the clearing of the contacts, which touch only the contact being
 * made); then, in pair order on this thread, the shared body lists and pair map, left to the
 * narrow phase, which joins them while the workers update the manifolds (attach_beside). */
void carom_create_contacts(carom_world* world, const uint64_t* keys, int count) {
    CAROM_ASSERT(arrlen(world->created_contacts) == 0);
    arrsetlen(world->created_contacts, count);
    for (int i = 0; i < count; ++i) {
        world->created_contacts[i] = claim_contact_id(world);
    }
    make_room_for_contacts(world);
    fill_task task = {world, keys, world->created_contacts};
    carom_parallel_for(&world->tasks, fill_new_contacts, count, NEW_CONTACTS_PER_RANGE, &task);
}

/* The contacts carom_create_contacts made, joined to their bodies' lists and the pair map, on
 * this thread while the workers make the manifolds: the manifolds read neither (nor the list
 * links of a contact, which are the fields this writes), and nothing writes them but this. */
static void attach_beside(void* context) {
    carom_world* world = context;
    attach_contacts(world, world->created_contacts, (int)arrlen(world->created_contacts));
    arrsetlen(world->created_contacts, 0);
}

void carom_contact_note_points(carom_contact* contact) {
    bool touch = false;
    if (contact->is_sensor) {
        touch = contact->point_count > 0;
    } else {
        for (int i = 0; i < contact->point_count; ++i) {
            touch = touch || contact->points[i].separation <= CAROM_TOUCHING_DISTANCE;
        }
    }
    contact->points_touch = touch;
}

carom_manifold carom_contact_get_manifold(const carom_contact* contact) {
    carom_manifold manifold;
    memset(&manifold, 0, sizeof(manifold));
    manifold.normal = contact->normal;
    manifold.point_count = contact->point_count;
    for (int i = 0; i < contact->point_count; ++i) {
        manifold.points[i].point = contact->points[i].point;
        manifold.points[i].separation = contact->points[i].separation;
        manifold.points[i].id = contact->points[i].id;
    }
    return manifold;
}

/* The fastest approach of the contact's points along its normal, from the bodies' velocities
 * (m/s; negative when every point is separating). 0 for a contact without points. */
static double approach_speed(const carom_world* world, const carom_contact* contact) {
    const carom_body* a = &world->bodies[contact->edges[0].body];
    const carom_body* b = &world->bodies[contact->edges[1].body];
    double fastest = -INFINITY;
    for (int i = 0; i < contact->point_count; ++i) {
        carom_vec2 point = contact->points[i].point;
        carom_vec2 va = carom_add(a->linear_velocity,
                                  carom_cross_sv(a->angular_velocity, carom_sub(point, a->center)));
        carom_vec2 vb = carom_add(b->linear_velocity,
                                  carom_cross_sv(b->angular_velocity, carom_sub(point, b->center)));
        fastest = carom_max_d(fastest, -carom_dot(carom_sub(vb, va), contact->normal));
    }
    return contact->point_count > 0 ? fastest : 0.0;
}

/* Record the begin or end of a contact's touching as a contact or sensor event, if its shapes
 * ask for it. */
static void report_touch_change(carom_world* world, const carom_contact* contact, bool begins) {
    if (!contact->reports_touch) {
        return;
    }
    const carom_shape* a = &world->shapes[contact->shape_a];
    const carom_shape* b = &world->shapes[contact->shape_b];
    carom_shape_id id_a = carom_make_shape_id(world, a);
    carom_shape_id id_b = carom_make_shape_id(world, b);
    if (contact->is_sensor) {
        carom_sensor_event event = {a->is_sensor ? id_a : id_b, a->is_sensor ? id_b : id_a};
        if (begins) {
            arrput(world->sensor_begin_events, event);
        } else {
            arrput(world->sensor_end_events, event);
        }
    } else if (begins) {
        carom_contact_begin_event event = {id_a, id_b, carom_contact_get_manifold(contact),
                                           approach_speed(world, contact)};
        arrput(world->begin_events, event);
    } else {
        carom_contact_end_event event = {id_a, id_b};
        arrput(world->end_events, event);
    }
}

void carom_contact_set_touching(carom_world* world, carom_contact* contact, bool touching) {
    if (touching != contact->touching) {
        contact->touching = touching;
        report_touch_change(world, contact, touching);
    }
}

void carom_destroy_contact(carom_world* world, int contact_id) {
    carom_contact* contact = &world->contacts[contact_id];
    CAROM_ASSERT(contact->id == contact_id);
    carom_mark_contact_changed(world, contact_id, CAROM_CONTACT_DESTROYED);
    if (contact->touching) {
        report_touch_change(world, contact, false);
    }
    carom_hash_map_remove(&world->pair_map, carom_contact_pair_key(contact));
    unlink_edge(world, contact, 0);
    unlink_edge(world, contact, 1);
    contact->id = -1;
    carom_id_pool_free(&world->contact_pool, contact_id);
}

void carom_relink_contacts(carom_world* world) {
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        world->bodies[i].contact_head = -1;
        world->bodies[i].contact_count = 0;
    }
    for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
        carom_contact* contact = &world->contacts[i];
        if (contact->id >= 0) {
            link_edge(world, contact, 0);
            link_edge(world, contact, 1);
        }
    }
}

int carom_collect_body_contacts(carom_world* world, const carom_body* body) {
    arrsetlen(world->body_contacts, 0);
    for (int key = body->contact_head; key >= 0;) {
        const carom_contact* contact = &world->contacts[key >> 1];
        arrput(world->body_contacts, contact->id);
        key = contact->edges[key & 1].next_key;
    }
    int count = (int)arrlen(world->body_contacts);
    carom_sort_few_ids(world->body_contacts, count);
    return count;
}

static carom_manifold compute_manifold(const carom_shape* a, carom_transform xfa,
                                       const carom_shape* b, carom_transform xfb,
                                       double speculative_distance) {
    if (a->type == CAROM_SHAPE_CHAIN_SEGMENT && b->type == CAROM_SHAPE_CIRCLE) {
        return carom_collide_chain_segment_and_circle(&a->chain, xfa, &b->circle, xfb,
                                                      speculative_distance);
    }
    if (a->type == CAROM_SHAPE_CHAIN_SEGMENT && b->type != CAROM_SHAPE_CHAIN_SEGMENT) {
        return carom_collide_chain_segment_and_polygon(&a->chain, xfa, &b->polygon, xfb,
                                                       speculative_distance);
    }
    if (a->type == CAROM_SHAPE_CIRCLE) {
        return carom_collide_circles(&a->circle, xfa, &b->circle, xfb, speculative_distance);
    }
    if (b->type == CAROM_SHAPE_CIRCLE) {
        return carom_collide_polygon_and_circle(&a->polygon, xfa, &b->circle, xfb,
                                                speculative_distance);
    }
    if (a->box_half_extents.x > 0.0 && b->box_half_extents.x > 0.0) {
        return carom_collide_boxes(&a->polygon, a->box_half_extents, xfa, &b->polygon,
                                   b->box_half_extents, xfb, speculative_distance);
    }
    return carom_collide_polygons(&a->polygon, xfa, &b->polygon, xfb, speculative_distance);
}

/* How far apart points are kept: the world's speculative distance plus the farthest the two
 * shapes can close in this step (relative speed of their centers plus spin times extent), so a
 * body moving a few centimetres per step is stopped at the surface instead of sinking in.
 * The extension is capped at the broad phase's margin: beyond it the pair may not exist yet,
 * and a longer reach only adds ghost contacts. */
static double speculative_distance(const carom_world* world, const carom_shape* shape_a,
                                   const carom_body* body_a, const carom_shape* shape_b,
                                   const carom_body* body_b, double dt) {
    double reach = carom_length(carom_sub(body_b->linear_velocity, body_a->linear_velocity)) +
                   fabs(body_a->angular_velocity) * shape_a->extent +
                   fabs(body_b->angular_velocity) * shape_b->extent;
    reach *= dt;
    if (reach > CAROM_AABB_MARGIN) {
        reach = CAROM_AABB_MARGIN;
    }
    return world->def.speculative_distance + reach;
}

/* Whether two tight boxes are more than `distance` apart along x or y. */
static bool boxes_apart(carom_aabb a, carom_aabb b, double distance) {
    return b.lower.x - a.upper.x > distance || a.lower.x - b.upper.x > distance ||
           b.lower.y - a.upper.y > distance || a.lower.y - b.upper.y > distance;
}

/* Contact recycling (after Box2D v3's, Erin Catto 2025): a manifold stays right while the two
 * bodies keep their relative pose, so while they have moved relative to each other less than
 * a small distance since it was made (counting a turn as the distance the farther body's
 * extent sweeps), and neither turned much, the manifold is kept: its points keep their anchors
 * on the bodies and only their separations follow the motion, as inside the substeps. That
 * skips the separating axis test for nearly every contact of a resting pile, and it steadies
 * the pile: the points, and with them the warm-started impulses, cannot hop between features.
 * A contact without touching points is kept no longer than the speculative distance allows,
 * so that nothing can approach it unseen. */
#define RECYCLE_COS_ANGLE 0.98 /* neither body turned more than about 11 degrees */

static bool try_recycle(const carom_world* world, carom_contact* contact, const carom_body* body_a,
                        const carom_body* body_b) {
    double recycle_distance = world->def.contact_recycle_distance;
    if (!contact->manifold_cached || recycle_distance <= 0.0) {
        return false;
    }
    carom_transform xfa = body_a->transform;
    carom_transform xfb = body_b->transform;
    double cos_a = xfa.q.c * contact->cached_rotation_a.c + xfa.q.s * contact->cached_rotation_a.s;
    double cos_b = xfb.q.c * contact->cached_rotation_b.c + xfb.q.s * contact->cached_rotation_b.s;
    carom_transform pose = carom_inv_mul_transforms(xfa, xfb);
    carom_rot turn = carom_inv_mul_rot(pose.q, contact->cached_pose.q);
    double extent_a = body_a->type == CAROM_BODY_STATIC ? 0.0 : body_a->max_extent;
    double extent_b = body_b->type == CAROM_BODY_STATIC ? 0.0 : body_b->max_extent;
    double moved = carom_distance(pose.p, contact->cached_pose.p) +
                   carom_max_d(extent_a, extent_b) * fabs(turn.s);
    /* the manifold's own touching, not the event flag, which the solver may have set */
    double tolerance = carom_contact_points_touch(contact)
                           ? recycle_distance
                           : carom_min_d(recycle_distance, world->def.speculative_distance);
    if (!(carom_min_d(cos_a, cos_b) > RECYCLE_COS_ANGLE && moved < tolerance)) {
        return false;
    }
    /* the separations, as the solver's substeps update them: the anchors turned with their
     * bodies, the normal fixed */
    carom_rot turn_a = carom_inv_mul_rot(contact->cached_rotation_a, xfa.q);
    carom_rot turn_b = carom_inv_mul_rot(contact->cached_rotation_b, xfb.q);
    carom_vec2 centers = carom_sub(body_b->center, body_a->center);
    for (int i = 0; i < contact->point_count; ++i) {
        carom_contact_point* cp = &contact->points[i];
        carom_vec2 ra = carom_rotate(turn_a, cp->anchor_a);
        carom_vec2 rb = carom_rotate(turn_b, cp->anchor_b);
        carom_vec2 d = carom_add(centers, carom_sub(rb, ra));
        cp->separation = cp->base_separation + carom_dot(d, contact->normal);
    }
    carom_contact_note_points(contact);
    return true;
}

static void cache_manifold_pose(carom_contact* contact, const carom_body* body_a,
                                const carom_body* body_b) {
    contact->manifold_cached = !contact->is_sensor;
    contact->cached_pose = carom_inv_mul_transforms(body_a->transform, body_b->transform);
    contact->cached_rotation_a = body_a->transform.q;
    contact->cached_rotation_b = body_b->transform.q;
}

/* A contact's friction and restitution, from its shapes'. */
static void mix_material(const carom_world* world, carom_contact* contact) {
    const carom_shape* shape_a = &world->shapes[contact->shape_a];
    const carom_shape* shape_b = &world->shapes[contact->shape_b];
    contact->friction = sqrt(shape_a->friction * shape_b->friction);
    contact->restitution =
        shape_a->restitution > shape_b->restitution ? shape_a->restitution : shape_b->restitution;
    contact->material_revision = world->material_revision;
}

void carom_contacts_material_changed(carom_world* world) {
    world->material_revision += 1;
    if (world->material_revision == 0) { /* wrapped: no contact may think itself current */
        world->material_revision = 1;
        for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
            world->contacts[i].material_revision = 0;
        }
    }
}

static void update_contact(const carom_world* world, carom_contact* contact, double dt) {
    /* A resting contact (recycled below) reads its bodies but not its shapes: in a pile of
     * thousands, each shape read was a cache miss. */
    bool mixed = contact->material_revision != world->material_revision;
    if (mixed) {
        mix_material(world, contact);
    }
    const carom_body* body_a = &world->bodies[contact->edges[0].body];
    const carom_body* body_b = &world->bodies[contact->edges[1].body];
    if (try_recycle(world, contact, body_a, body_b)) {
        contact->recycled = !mixed;
        return; /* without reading the bodies' velocities: a resting pile's usual case */
    }
    contact->recycled = false;
    const carom_shape* shape_a = &world->shapes[contact->shape_a];
    const carom_shape* shape_b = &world->shapes[contact->shape_b];
    /* a sensor only asks whether the shapes overlap: no speculation */
    double speculative = contact->is_sensor
                             ? 0.0
                             : speculative_distance(world, shape_a, body_a, shape_b, body_b, dt);
    cache_manifold_pose(contact, body_a, body_b);
    if (boxes_apart(shape_a->aabb, shape_b->aabb, speculative)) {
        /* farther apart than the speculative distance on one axis: the separating axis test
         * would find no point either, so skip it */
        contact->point_count = 0;
        contact->points_touch = false;
        return;
    }
    carom_manifold manifold = compute_manifold(shape_a, body_a->transform, shape_b,
                                               body_b->transform, speculative);
    int old_count = contact->point_count;
    contact->normal = manifold.normal;
    contact->point_count = manifold.point_count;
    if (manifold.point_count == 0) {
        contact->points_touch = false;
        return; /* most pairs: the points' cache lines are left alone */
    }
    carom_contact_point old_points[2];
    carom_contact_impulse old_impulses[2];
    memcpy(old_points, contact->points, sizeof(old_points));
    memcpy(old_impulses, contact->impulses, sizeof(old_impulses));
    for (int i = 0; i < manifold.point_count; ++i) {
        carom_contact_point* cp = &contact->points[i];
        cp->point = manifold.points[i].point;
        cp->separation = manifold.points[i].separation;
        cp->base_separation = cp->separation;
        cp->id = manifold.points[i].id;
        cp->anchor_a = carom_sub(cp->point, body_a->center);
        cp->anchor_b = carom_sub(cp->point, body_b->center);
        contact->impulses[i] = (carom_contact_impulse){0.0, 0.0};
        for (int j = 0; j < old_count; ++j) {
            if (old_points[j].id == cp->id) {
                contact->impulses[i] = old_impulses[j];
                break;
            }
        }
    }
    carom_contact_note_points(contact);
}

/* The pre-solve callback's verdict on a contact with points (carom_world_set_pre_solve), asked
 * in contact-id order with the world locked. A disabled contact forgets its impulses, so that
 * it does not warm start from a push it never made when it is enabled again. */
static bool pre_solve_enables(carom_world* world, carom_contact* contact) {
    contact->disabled = false;
    if (world->pre_solve == NULL || contact->point_count == 0 || contact->is_sensor) {
        return true;
    }
    carom_manifold manifold = carom_contact_get_manifold(contact);
    world->locked_by = "inside a pre-solve callback; do it after carom_world_step returns";
    bool enabled = world->pre_solve(carom_make_shape_id(world, &world->shapes[contact->shape_a]),
                                    carom_make_shape_id(world, &world->shapes[contact->shape_b]),
                                    &manifold, world->pre_solve_context) != 0;
    world->locked_by = NULL;
    if (!enabled) {
        contact->disabled = true;
        for (int i = 0; i < contact->point_count; ++i) {
            contact->impulses[i] = (carom_contact_impulse){0.0, 0.0};
        }
    }
    return enabled;
}

/* Whether the contact is something the solver must push: points, no sensor, and a body that
 * moves or may be moved. */
static bool solver_needs(const carom_world* world, const carom_contact* contact) {
    return contact->point_count > 0 && !contact->is_sensor && !contact->disabled &&
           (carom_body_is_active(&world->bodies[contact->edges[0].body]) ||
            carom_body_is_active(&world->bodies[contact->edges[1].body]));
}

/* A contact's note (world.h), taken while the contact is at hand. */
static inline carom_touching_note note_contact(const carom_contact* contact) {
    carom_touching_note note = {contact->edges[0].body,
                                contact->edges[1].body,
                                contact->point_count,
                                carom_contact_points_touch(contact),
                                contact->recycled,
                                false,
                                {0.0f, 0.0f}};
    if (contact->recycled) { /* the points were just written, by try_recycle */
        note.bounces = contact->restitution > 0.0;
        for (int i = 0; i < contact->point_count; ++i) {
            note.separations[i] = (float)contact->points[i].separation;
        }
    }
    return note;
}

/* Onto the solver's list, with its note. The bodies of a touching contact there are pushed:
 * their motion this step says little about the next one (fat boxes, body.c). A speculative
 * contact pushes nothing yet. */
static CAROM_FORCE_INLINE void list_touching(carom_world* world, int contact_id,
                                             carom_touching_note note) {
    arrput(world->touching_contacts, contact_id);
    arrput(world->touching_notes, note);
    if (note.points_touch) {
        world->pushed_bodies[note.body_a] = 1;
        world->pushed_bodies[note.body_b] = 1;
    }
}

/* The solver's list emptied, for a new one. */
static void clear_touching(carom_world* world) {
    arrsetlen(world->touching_contacts, 0);
    arrsetlen(world->touching_notes, 0);
}

/* No body pushed yet this step, one flag per body id. */
static void clear_pushed(carom_world* world) {
    int count = (int)arrlen(world->bodies);
    arrsetlen(world->pushed_bodies, count);
    if (count > 0) { /* an empty world's array is NULL, which memset may not take */
        memset(world->pushed_bodies, 0, (size_t)count);
    }
}

/* All contacts the solver needs, by a pass over every contact: for when a wake during the
 * narrow phase made contacts it had skipped as resting the solver's business again. */
static void list_touching_contacts(carom_world* world) {
    clear_touching(world);
    clear_pushed(world);
    for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
        const carom_contact* contact = &world->contacts[i];
        if (contact->id >= 0 && solver_needs(world, contact)) {
            carom_touching_note note = note_contact(contact);
            note.recycled = false; /* this step may not have updated it */
            list_touching(world, i, note);
        }
    }
}

/* What the parallel pass did with a contact, for the merge after it. */
enum {
    OUTCOME_SKIPPED = 1, /* neither body active: nothing moved, unless a wake came first */
    OUTCOME_DESTROY = 2, /* the fat boxes parted */
    OUTCOME_UPDATED = 3, /* its manifold is this step's: the merge settles it (settle_contact) */
    /* Updated, and what settle_contact would do is known already and touches nothing but the
     * solver's list: no pre-solve callback, no event, no sleeping body. The merge then need not
     * read the contact again (a pile's contacts fill megabytes: reading each twice a step cost
     * a cache miss each). */
    OUTCOME_QUIET = 4, /* nothing for the solver: no points, or a sensor */
    OUTCOME_SOLVE = 5  /* only onto the solver's list */
};

/* The outcome of an updated contact when there is no pre-solve callback: OUTCOME_UPDATED if its
 * touching changes (an event) or it would wake a sleeping body, else what settle_contact would
 * do, done here on the contact alone (the disabled flag, which only the callback sets). Reads
 * the bodies' sleep flags, which nothing changes while contacts are updated in parallel; a body
 * asleep now may be woken by an earlier contact in the merge, which settle_contact's wake then
 * finds done. */
static unsigned char settled_outcome(const carom_world* world, carom_contact* contact) {
    contact->disabled = false;
    bool touching = carom_contact_points_touch(contact);
    bool solves = contact->point_count > 0 && !contact->is_sensor;
    bool solver_decides = !touching && solves;
    if (!solver_decides && touching != contact->touching) {
        return OUTCOME_UPDATED;
    }
    if (!solves) {
        return OUTCOME_QUIET;
    }
    if (world->bodies[contact->edges[0].body].asleep ||
        world->bodies[contact->edges[1].body].asleep) {
        return OUTCOME_UPDATED;
    }
    return OUTCOME_SOLVE;
}

/* A contact's own work: it writes only this contact (and *pressing: the body it presses, for
 * continuous collision, or -1), so contacts run at the same time. Touching, events, the
 * pre-solve callback and wakes are the merge's (in contact order). */
static unsigned char collide_contact(const carom_world* world, carom_contact* contact,
                                     double dt, int* pressing) {
    *pressing = -1;
    const carom_proxy* proxies = world->broad_phase.proxies;
    const carom_body* body_a = &world->bodies[contact->edges[0].body];
    const carom_body* body_b = &world->bodies[contact->edges[1].body];
    if (!carom_body_is_active(body_a) && !carom_body_is_active(body_b)) {
        return OUTCOME_SKIPPED; /* nothing moved: sleeping or resting against something still */
    }
    if (!carom_aabb_overlaps(proxies[contact->shape_a].fat_aabb,
                             proxies[contact->shape_b].fat_aabb)) {
        return OUTCOME_DESTROY;
    }
    update_contact(world, contact, dt);
    if (world->def.enable_continuous && contact->point_count > 0 && !contact->is_sensor) {
        *pressing = carom_continuous_pressed_body(world, contact);
    }
    return world->pre_solve == NULL ? settled_outcome(world, contact) : OUTCOME_UPDATED;
}

/* The merge's part for an updated contact, on this thread: the pre-solve callback, touching
 * (a contact whose points are all speculative is left to the solver to settle: solver.c),
 * events, wakes and the solver's list. */
static void settle_contact(carom_world* world, int i) {
    carom_contact* contact = &world->contacts[i];
    if (!pre_solve_enables(world, contact)) {
        carom_contact_set_touching(world, contact, false);
        return; /* neither solved nor waking anything this step */
    }
    bool touching = carom_contact_points_touch(contact);
    bool solver_decides = !touching && contact->point_count > 0 && !contact->is_sensor;
    if (!solver_decides) {
        carom_contact_set_touching(world, contact, touching);
    }
    if (contact->point_count > 0 && !contact->is_sensor) {
        /* an active body touches a sleeping one: wake its island */
        carom_wake_body(world, &world->bodies[contact->edges[0].body]);
        carom_wake_body(world, &world->bodies[contact->edges[1].body]);
        list_touching(world, i, note_contact(contact));
    }
}

typedef struct collide_task {
    carom_world* world;
    const int* awake;
    unsigned char* outcomes;
    int* pressing;
    carom_touching_note* notes; /* per contact, for the merge, which then need not read it */
    double dt;
} collide_task;

/* How many contacts ahead collide_range fetches what a contact reads: its shapes, bodies and
 * proxies, which lie anywhere in their arrays, so each is a cache miss when the pile is large
 * (a stirred drum of 6,000 bodies has 50,000 contacts); fetched ahead, the misses of several
 * contacts overlap. The contact itself is fetched twice as far ahead, so that its shape and
 * body indices are at hand when they are needed. */
#define COLLIDE_PREFETCH_AHEAD 4

/* The fields a contact's update reads from a shape or a body lead their structs (shape.h,
 * body.h), over up to three cache lines of a struct that does not start on one. */
static void prefetch_lead(const void* record, size_t lead_bytes) {
    const char* bytes = record;
    __builtin_prefetch(bytes);
    __builtin_prefetch(bytes + 64);
    __builtin_prefetch(bytes + lead_bytes - 1);
}

static void prefetch_contact_reads(const carom_world* world, const carom_contact* contact) {
    if (!contact->manifold_cached) { /* a cached manifold is mostly recycled: no shape read */
        prefetch_lead(&world->shapes[contact->shape_a], offsetof(carom_shape, circle));
        prefetch_lead(&world->shapes[contact->shape_b], offsetof(carom_shape, circle));
    }
    prefetch_lead(&world->bodies[contact->edges[0].body], offsetof(carom_body, max_extent) + 8);
    prefetch_lead(&world->bodies[contact->edges[1].body], offsetof(carom_body, max_extent) + 8);
    __builtin_prefetch(&world->broad_phase.proxies[contact->shape_a].fat_aabb);
    __builtin_prefetch(&world->broad_phase.proxies[contact->shape_b].fat_aabb);
}

/* A contact's first fields and the pose its manifold was made at, which every update reads
 * (try_recycle), at the struct's two ends. */
static void prefetch_contact(const carom_contact* contact) {
    __builtin_prefetch(contact);
    __builtin_prefetch(&contact->manifold_cached);
    __builtin_prefetch(&contact->cached_rotation_b);
}

static void collide_range(int begin, int end, int worker, void* context) {
    (void)worker;
    const collide_task* task = context;
    for (int k = begin; k < end; ++k) {
        if (k + 2 * COLLIDE_PREFETCH_AHEAD < end) {
            prefetch_contact(&task->world->contacts[task->awake[k + 2 * COLLIDE_PREFETCH_AHEAD]]);
        }
        if (k + COLLIDE_PREFETCH_AHEAD < end) {
            prefetch_contact_reads(task->world,
                                   &task->world->contacts[task->awake[k + COLLIDE_PREFETCH_AHEAD]]);
        }
        carom_contact* contact = &task->world->contacts[task->awake[k]];
        task->outcomes[k] = collide_contact(task->world, contact, task->dt, &task->pressing[k]);
        task->notes[k] = note_contact(contact);
    }
}

/* Contacts per range handed to a worker. */
#define CONTACTS_PER_RANGE 128

/* How many contacts ahead destroy_parted_contacts fetches a contact, and then what its
 * destruction reads and writes: its pair-map slot and its neighbours in the bodies' contact
 * lists. */
#define DESTROY_PREFETCH_AHEAD 4

static void prefetch_contact_destruction(const carom_world* world, const carom_contact* contact) {
    carom_hash_map_prefetch(&world->pair_map, carom_contact_pair_key(contact));
    for (int e = 0; e < 2; ++e) {
        const carom_contact_edge* edge = &contact->edges[e];
        __builtin_prefetch(&world->bodies[edge->body], 1);
        if (edge->prev_key >= 0) {
            __builtin_prefetch(&world->contacts[edge->prev_key >> 1], 1);
        }
        if (edge->next_key >= 0) {
            __builtin_prefetch(&world->contacts[edge->next_key >> 1], 1);
        }
    }
}

/* The contacts whose fat boxes parted, destroyed in contact order. */
static void destroy_parted_contacts(carom_world* world) {
    const int* ids = world->contacts_to_destroy;
    int count = (int)arrlen(ids);
    for (int i = 0; i < count; ++i) {
        if (i + 2 * DESTROY_PREFETCH_AHEAD < count) {
            __builtin_prefetch(&world->contacts[ids[i + 2 * DESTROY_PREFETCH_AHEAD]]);
        }
        if (i + DESTROY_PREFETCH_AHEAD < count) {
            prefetch_contact_destruction(world, &world->contacts[ids[i + DESTROY_PREFETCH_AHEAD]]);
        }
        carom_destroy_contact(world, ids[i]);
    }
}

/* The merge's part for awake contact k, in contact order on this thread: what the contact
 * does to the world (events, wakes, the solver's list, destruction). A contact skipped because
 * both bodies were at rest is looked at again here, since a wake by an earlier contact may have
 * made one active. */
static void merge_contact(carom_world* world, const int* awake, int k, double dt) {
    unsigned char outcome = world->contact_outcomes[k];
    int i = awake[k];
    if (outcome == OUTCOME_SKIPPED) {
        outcome = collide_contact(world, &world->contacts[i], dt, &world->contact_pressing[k]);
        world->contact_notes[k] = note_contact(&world->contacts[i]);
    }
    int listed = (int)arrlen(world->touching_contacts);
    if (outcome == OUTCOME_SOLVE) {
        list_touching(world, i, world->contact_notes[k]);
    } else if (outcome == OUTCOME_DESTROY) {
        arrput(world->contacts_to_destroy, i);
    } else if (outcome == OUTCOME_UPDATED) {
        settle_contact(world, i);
    }
    /* continuous collision's mark, for each contact on the solver's list */
    if ((int)arrlen(world->touching_contacts) > listed && world->contact_pressing[k] >= 0) {
        world->bodies[world->contact_pressing[k]].pressed = true;
    }
}

/* The merge's fast path. Most blocks of contacts hold only contacts that go onto the solver's
 * list (OUTCOME_SOLVE) or do nothing (OUTCOME_QUIET): all of a resting pile's, three in four of
 * the 16,000-ball rain's. For those the merge only keeps a block's place on the list; the
 * workers then write the block's contacts there, with the marks listing them leaves, as the
 * contact-by-contact merge would have (the merge, on this thread alone, was 3 % of a two-thread
 * step of the rain). */
#define MERGE_BLOCK 64

typedef struct merge_task {
    carom_world* world;
    const int* awake; /* the awake contacts the narrow phase walks */
    int count;
} merge_task;

/* Per block: how many contacts it lists if it is all OUTCOME_SOLVE and OUTCOME_QUIET, else -1
 * (the merge settles it contact by contact). */
static void count_listed(int begin, int end, int worker, void* context) {
    (void)worker;
    const merge_task* task = context;
    carom_world* world = task->world;
    const unsigned char* outcomes = world->contact_outcomes;
    for (int block = begin; block < end; ++block) {
        int last = carom_block_end(block, MERGE_BLOCK, task->count);
        int listed = 0;
        bool plain = true;
        for (int k = block * MERGE_BLOCK; k < last; ++k) {
            listed += outcomes[k] == OUTCOME_SOLVE;
            plain &= outcomes[k] == OUTCOME_SOLVE || outcomes[k] == OUTCOME_QUIET;
        }
        world->merge_places[block] = plain ? listed : -1;
    }
}

/* Per plain block: its listed contacts and their notes written from the block's place, and
 * their marks set (list_touching's pushed bodies, the body a contact presses). Two blocks may
 * mark one body: the same value, stored atomically. */
static void write_listed(int begin, int end, int worker, void* context) {
    (void)worker;
    const merge_task* task = context;
    carom_world* world = task->world;
    for (int block = begin; block < end; ++block) {
        int place = world->merge_places[block];
        if (place < 0) {
            continue;
        }
        int last = carom_block_end(block, MERGE_BLOCK, task->count);
        for (int k = block * MERGE_BLOCK; k < last; ++k) {
            if (world->contact_outcomes[k] != OUTCOME_SOLVE) {
                continue;
            }
            carom_touching_note note = world->contact_notes[k];
            world->touching_contacts[place] = task->awake[k];
            world->touching_notes[place] = note;
            place += 1;
            if (note.points_touch) {
                __atomic_store_n(&world->pushed_bodies[note.body_a], 1, __ATOMIC_RELAXED);
                __atomic_store_n(&world->pushed_bodies[note.body_b], 1, __ATOMIC_RELAXED);
            }
            if (world->contact_pressing[k] >= 0) {
                __atomic_store_n(&world->bodies[world->contact_pressing[k]].pressed, true,
                                 __ATOMIC_RELAXED);
            }
        }
    }
}

/* Blocks per range handed to a worker by the fast path's two passes. */
#define MERGE_BLOCKS_PER_RANGE 16

/* In contact order: the plain blocks keep their places on the list, the others are settled
 * contact by contact; then the workers fill the plain blocks' places. Nothing the settling does
 * (events, wakes, the pre-solve callback, which makes every contact OUTCOME_UPDATED) reads the
 * list or the marks, so the order of the two changes nothing. */
static void merge_contacts(carom_world* world, const int* awake, int awake_count, double dt) {
    int blocks = (awake_count + MERGE_BLOCK - 1) / MERGE_BLOCK;
    arrsetlen(world->merge_places, blocks);
    merge_task task = {world, awake, awake_count};
    carom_parallel_for(&world->tasks, count_listed, blocks, MERGE_BLOCKS_PER_RANGE, &task);
    arrsetcap(world->touching_contacts, awake_count); /* the list holds each contact once */
    arrsetcap(world->touching_notes, awake_count);
    for (int block = 0; block < blocks; ++block) {
        int listed = world->merge_places[block];
        if (listed >= 0) {
            int place = (int)arrlen(world->touching_contacts);
            arrsetlen(world->touching_contacts, place + listed);
            arrsetlen(world->touching_notes, place + listed);
            world->merge_places[block] = place;
            continue;
        }
        int last = carom_block_end(block, MERGE_BLOCK, awake_count);
        for (int k = block * MERGE_BLOCK; k < last; ++k) {
            merge_contact(world, awake, k, dt);
        }
    }
    carom_parallel_for(&world->tasks, write_listed, blocks, MERGE_BLOCKS_PER_RANGE, &task);
}

/* The manifolds are made in parallel (collide_range); then, in contact order, what one contact
 * does to the world (merge_contacts): exactly the contacts, in the order, that one pass in
 * contact order would update. (Waking changes no body field a manifold reads.) */
void carom_narrow_phase_collide(carom_world* world, double dt) {
    arrsetlen(world->contacts_to_destroy, 0);
    clear_touching(world);
    uint64_t wakes_before = world->wake_count;
    carom_refresh_awake_lists(world);
    /* waking during the merge changes awake_contacts: walk a copy of its length, which the
     * merge only reads (a wake marks the lists stale rather than rebuilding them) */
    const int* awake = world->awake_contacts;
    int awake_count = (int)arrlen(world->awake_contacts);
    arrsetlen(world->contact_outcomes, awake_count);
    arrsetlen(world->contact_pressing, awake_count);
    arrsetlen(world->contact_notes, awake_count);
    clear_pushed(world);
    collide_task task = {world,         awake, world->contact_outcomes, world->contact_pressing,
                         world->contact_notes, dt};
    carom_parallel_for_beside(&world->tasks, collide_range, awake_count, CONTACTS_PER_RANGE,
                              &task, attach_beside, world);
    merge_contacts(world, awake, awake_count, dt);
    /* Parted contacts go before any relisting below: a parted contact keeps its old points,
     * and a pass over every contact would put it on the solver's list, which would then solve
     * it and store its impulses into a freed slot. */
    destroy_parted_contacts(world);
    /* After a wake the list is made again, with contacts not updated this step: continuous
     * collision then marks the bodies they press itself. */
    world->continuous.pressed_marked = world->def.enable_continuous;
    if (world->wake_count != wakes_before) {
        list_touching_contacts(world);
        world->continuous.pressed_marked = false;
    }
}
