/* The narrow phase: contacts between shape pairs, their manifolds, and their lifetimes. */
#ifndef CAROM_NARROW_PHASE_H
#define CAROM_NARROW_PHASE_H

#include "carom/carom.h"

#include "broad_phase.h"

#include <stdbool.h>

typedef struct carom_world carom_world;
typedef struct carom_body carom_body;

typedef struct carom_contact_point {
    carom_vec2 point;     /* world frame */
    carom_vec2 anchor_a;  /* point relative to body A's center of mass, world frame */
    carom_vec2 anchor_b;  /* point relative to body B's center of mass, world frame */
    double separation;    /* m, negative when overlapping */
    uint32_t id;          /* feature id, matched across steps for warm starting */
    double base_separation; /* separation when the manifold was made (recycling) */
} carom_contact_point;

/* A point's impulses, accumulated over the last substep of the last step (N·s) and carried to
 * the next one: the normal one and friction's. Kept apart from the points, both points' in 32
 * bytes: the solver's store writes them every step into contacts all over the array, and beside
 * their points they were two cache lines a contact. */
typedef struct carom_contact_impulse {
    double normal, tangent;
} carom_contact_impulse;

/* One end of a contact in a body's doubly linked contact list. Keys are contact << 1 | edge. */
typedef struct carom_contact_edge {
    int body;
    int prev_key;
    int next_key;
} carom_contact_edge;

typedef struct carom_contact {
    /* What every pass over the contacts reads first comes first. */
    int id; /* own index, or -1 when free */
    int shape_a, shape_b;
    int point_count;
    carom_contact_edge edges[2]; /* edges[0] in body A's list, edges[1] in body B's */
    bool is_sensor;     /* either shape is a sensor: overlap only, no push */
    /* Whether its begin and end are reported (carom_shapes_report_touch: a sensor's always,
     * another's if either shape has contact or hit events): set when the contact is made, so
     * that a begin or an end nobody asked for reads neither shape. */
    bool reports_touch;
    bool disabled;      /* the pre-solve callback disabled it for this step: not solved */
    bool touching;      /* what events reported: a point within CAROM_TOUCHING_DISTANCE (sensors:
                           overlapping), or pushed by the solver this step (narrow_phase.c) */
    /* Whether a point of the manifold touches (carom_contact_points_touch), noted whenever the
     * points change (carom_contact_note_points), so that the passes that ask (the solver's
     * collection of constraints, the narrow phase's merge) read it here beside the ids rather
     * than from the points, a cache line or two further into the contact. */
    bool points_touch;
    /* Whether this step's update kept the manifold (recycling, narrow_phase.c) with the
     * friction and restitution it had: since the last step only the points' separations
     * changed, so the solver may refresh the constraint's lane rather than fill it again
     * (contact_solver_lanes.h). Read only through the touching note of the same step. */
    bool recycled;
    /* The world's material_revision when friction and restitution were mixed from the shapes;
     * 0: not since it was made or restored, so the next update mixes them. */
    uint32_t material_revision;
    double friction;    /* sqrt(friction_a * friction_b) */
    double restitution; /* max(restitution_a, restitution_b) */
    carom_vec2 normal;  /* from shape A to shape B */
    carom_contact_impulse impulses[2]; /* of points[0] and points[1] */
    carom_contact_point points[2];
    /* The bodies' poses when the manifold was made, so that it can be reused while they barely
     * move relative to each other (recycling, narrow_phase.c). */
    bool manifold_cached;       /* false: make the manifold afresh next step */
    carom_transform cached_pose; /* B's origin in A's origin frame */
    carom_rot cached_rotation_a, cached_rotation_b;
} carom_contact;

/* The contact's key in the world's pair map (carom_pair_key of its shapes): worked out rather
 * than stored, 8 bytes fewer in every contact that the passes over them stream. */
static inline uint64_t carom_contact_pair_key(const carom_contact* contact) {
    return carom_pair_key(contact->shape_a, contact->shape_b);
}

/* What the solver's collection of constraints reads of a contact on the touching list, noted by
 * the narrow phase while the contact is at hand: a pile's contacts fill megabytes, and reading
 * each again for these few fields cost a cache miss a contact (contact_solver.c). */
typedef struct carom_touching_note {
    int body_a, body_b; /* edges[0].body and edges[1].body */
    int point_count;
    bool points_touch; /* carom_contact_points_touch */
    bool recycled;     /* the contact's recycled, set by this step's update; false otherwise */
    /* If recycled: whether its restitution is above 0 (the solver's restitution pass then
     * reads its approach), and its separations, rounded as the solver's lanes hold them (0 for
     * a missing point). A recycled constraint's lane takes them from here rather than from the
     * points, two cache lines further into the contact. Not set otherwise. */
    bool bounces;
    float separations[2];
} carom_touching_note;

/* Where a shape goes in a contact's pair, lower first: chain segments (their tests correct from
 * A's side), then the other polygons, then circles (always B unless both are); between two of one
 * rank, the lower shape id. carom_create_contacts orders pairs by it, and the snapshot reader
 * refuses contacts not in this order. */
static inline int carom_contact_rank(carom_shape_type type) {
    return type == CAROM_SHAPE_CHAIN_SEGMENT ? 0 : type == CAROM_SHAPE_CIRCLE ? 2 : 1;
}

/* Whether the contact's manifold touches: a point within CAROM_TOUCHING_DISTANCE (a sensor's:
 * any overlap). */
static inline bool carom_contact_points_touch(const carom_contact* contact) {
    return contact->points_touch;
}
/* Note whether the manifold touches, after its points or separations changed. */
void carom_contact_note_points(carom_contact* contact);
/* The contact's manifold in its public form. */
carom_manifold carom_contact_get_manifold(const carom_contact* contact);
/* Set the contact's event flag, recording a begin or end event when it changes. */
void carom_contact_set_touching(carom_world* world, carom_contact* contact, bool touching);

/* A shape's friction or restitution changed: every contact mixes its material again at its next
 * update. */
void carom_contacts_material_changed(carom_world* world);
/* Create the contacts of count pair keys (carom_pair_key), in that order: the broad phase's new
 * pairs. They join their bodies' contact lists and the pair map at the start of the next
 * carom_narrow_phase_collide (in the same step), as if at once: nothing reads those between. */
void carom_create_contacts(carom_world* world, const uint64_t* keys, int count);
/* Destroy a contact; a touching one reports its end (contact or sensor end event). */
void carom_destroy_contact(carom_world* world, int contact_id);
/* Rebuild every body's contact list from the live contacts, linked in ascending id order (a
 * restored world: see carom_collect_body_contacts). Contacts' edge bodies must be set. */
void carom_relink_contacts(carom_world* world);
/* The ids of the body's contacts in ascending order, into the world's scratch array
 * `body_contacts`; returns their count. A body's contact list is in the order its contacts were
 * linked, which a restored world does not reproduce, so whatever walks a body's contacts with an
 * effect that depends on the order (destroying them frees ids, waking frees island ids) walks
 * this instead. */
int carom_collect_body_contacts(carom_world* world, const carom_body* body);
/* Update every contact's manifold for a step of dt seconds; destroy contacts whose fattened
 * boxes no longer overlap. */
void carom_narrow_phase_collide(carom_world* world, double dt);

#endif
