/* The world: owner of bodies, shapes, contacts and the stages' state. */
#ifndef CAROM_WORLD_H
#define CAROM_WORLD_H

#include "carom/carom.h"

#include "body.h"
#include "broad_phase.h"
#include "continuous.h"
#include "hash_map.h"
#include "id_pool.h"
#include "joint.h"
#include "narrow_phase.h"
#include "shape.h"
#include "sleep.h"
#include "snapshot.h"
#include "solver.h"
#include "task.h"
#include "vehicle.h"

#include <stdbool.h>

struct carom_world {
    uint16_t index;
    uint16_t generation;
    carom_world_def def; /* settings, validated */
    carom_task_system tasks; /* who runs the parallel stages (task.c) */

    carom_body* bodies; /* stb_ds array indexed by body id */
    carom_id_pool body_pool;
    carom_shape* shapes; /* stb_ds array indexed by shape id */
    carom_id_pool shape_pool;
    carom_contact* contacts; /* stb_ds array indexed by contact id */
    carom_id_pool contact_pool;
    carom_hash_map pair_map;    /* pair key -> contact id (lookups only) */
    int* contacts_to_destroy;   /* scratch */
    int* created_contacts;      /* scratch: the ids of the contacts being created */
    unsigned char* contact_outcomes; /* scratch: per awake contact, the narrow phase's verdict */
    int* contact_pressing; /* scratch: per awake contact, the body it presses (continuous.h) */
    carom_touching_note* contact_notes; /* scratch: per awake contact, its note (narrow_phase.c) */
    /* scratch: per block of awake contacts, where the narrow phase's merge puts its contacts on
     * the solver's list, or -1 for a block it settles contact by contact (narrow_phase.c) */
    int* merge_places;
    /* Per body id, set by each step's narrow phase: 1 if one of the body's contacts on the
     * solver's list touches (a point within CAROM_TOUCHING_DISTANCE): something pushes it, and
     * its fat box gets no look-ahead (body.c). Meaningful from the narrow phase to the end of
     * the step only, so nothing of it is saved in a snapshot. */
    unsigned char* pushed_bodies;
    /* The narrow phase's output for the solver: non-sensor contacts with points whose bodies
     * are not both inactive, ascending (carom_narrow_phase_collide), and beside each its note. */
    int* touching_contacts;
    carom_touching_note* touching_notes;
    uint64_t wake_count; /* islands woken so far: tells the narrow phase a wake happened */
    /* What a step visits, so that sleeping bodies and their contacts cost nothing: the awake
     * non-static bodies and the contacts with an awake dynamic or a kinematic body, both in
     * ascending id order (carom_refresh_awake_lists). Rebuilt from scratch when awake_revision
     * has moved: by anything that creates or destroys bodies, changes what a body is (type,
     * enabled), or puts bodies to sleep or wakes them. Contacts made and destroyed while the
     * bodies keep their state (a moving pile makes and ends thousands a step) only mark their
     * ids in contact_changed (carom_mark_contact_changed), and the contact list is then brought
     * up to date by a merge of those ids into it, which gives the same list as a rebuild. */
    int* awake_bodies;
    int* awake_contacts;
    /* stb_ds array, per contact id (a multiple of 8 long, zeros past the last mark): 0 if the
     * contact was neither created nor destroyed since the lists were made, else which of the
     * two came last (CAROM_CONTACT_CREATED, CAROM_CONTACT_DESTROYED) */
    unsigned char* contact_changed;
    int changed_contact_count;   /* marks set in contact_changed */
    int* awake_contacts_scratch; /* scratch: the merge's output, swapped with awake_contacts */
    int* merge_blocks;           /* scratch: per block of the merge, its count, then offset */
    uint64_t awake_revision;
    uint64_t awake_lists_revision; /* the revision the lists were built at; 0: never */
    unsigned char* select_flags;   /* scratch: carom_parallel_select for the lists */
    int* select_blocks;
    /* per solver state of the step: whether its body reports a move (body_move_events holds
     * one event per state until the step's end keeps those: world.c's record_body_moves) */
    unsigned char* move_flags;
    /* per solver state of the step: CAROM_REST_* bits (sleep.h), for the sleep stage */
    unsigned char* rest_flags;
    int* body_contacts;         /* scratch: carom_collect_body_contacts */
    carom_continuous_scratch continuous; /* scratch of continuous.c */
    int* query_shapes;          /* scratch for queries */
    struct ray_hit* ray_hits;   /* scratch for ray casts */

    /* events of the last step, cleared when the next one starts */
    carom_contact_begin_event* begin_events;
    carom_contact_end_event* end_events;
    carom_contact_hit_event* hit_events;
    carom_sensor_event* sensor_begin_events;
    carom_sensor_event* sensor_end_events;
    carom_body_move_event* body_move_events; /* of the last step, made at its end */

    carom_broad_phase broad_phase;
    carom_solver solver;

    carom_island* islands; /* sleeping islands, indexed by island id */
    carom_id_pool island_pool;
    int* sleep_parent;           /* scratch: union-find over body ids */
    double* sleep_min_time;      /* scratch: shortest rest time per island root */
    double* sleep_energy_gain;   /* scratch: kinetic energy gained during the rest, per root */
    int* sleep_island_of_root;   /* scratch: island id given to each root this step */

    carom_vehicle* vehicles; /* stb_ds array indexed by vehicle id (vehicle.c) */
    carom_id_pool vehicle_pool;

    /* joints (joint.c, joint_solver.c) */
    carom_joint* joints; /* stb_ds array indexed by joint id */
    carom_id_pool joint_pool;
    int* body_joint_heads;  /* per body id: head of its joint list (joint << 1 | edge) or -1;
                               ids beyond its length have none */
    int* body_joint_scratch; /* scratch: a body's joints in id order */
    int kinematic_joint_count; /* live joints with a kinematic body (carom_joints_wake_driven) */
    int* awake_joints;       /* joints with an awake dynamic body, ascending */
    uint64_t awake_joints_revision; /* the awake revision awake_joints was built at; 0: never */
    int* solved_joints;             /* this step's joints, ascending */
    int* joint_states;              /* the solver states they write, unless every moving state
                                       is a shorter list to check (joint_solver.c) */
    carom_joint_context joint_context;
    carom_joint_break_event* joint_break_events; /* of the last step */

    /* Bumped by every change to what a snapshot's scene part holds (bodies, shapes and vehicles
     * created or destroyed, shape materials), so that the scene checksum is recomputed only
     * when it may have changed (snapshot_write.c). */
    uint64_t scene_revision;
    /* Bumped when a shape's friction or restitution changes, never 0: a contact mixes its
     * material from its shapes only when this moved since it last did (narrow_phase.c), so a
     * resting contact's update reads no shape. */
    uint32_t material_revision;
    uint64_t scene_checksum;          /* valid when scene_checksum_revision == scene_revision */
    uint64_t scene_checksum_revision; /* 0: never computed (scene_revision starts at 1) */
    uint8_t* snapshot_scratch;        /* stb_ds byte array for scene encoding */
    /* Live shapes that ask for hit events, counted again when the scene revision moved (only
     * creation sets enable_hit_events), so a world without them skips the solver's hit pass. */
    int hit_event_shapes;
    uint64_t hit_event_shapes_revision; /* 0: never counted */
    struct carom_snapshot_scratch* snapshot; /* decoding scratch, made by the first restore */

    /* The user's callbacks inside the step (carom_world_set_custom_filter, _pre_solve); not in
     * snapshots: they are code, not state. */
    carom_custom_filter_fn* custom_filter;
    void* custom_filter_context;
    carom_pre_solve_fn* pre_solve;
    void* pre_solve_context;

    int massless_dynamic_count; /* dynamic bodies with zero mass: stepping is refused */
    int step_count;
    /* Set inside carom_world_step, and while a query or carom_world_draw calls back into user
     * code: every call that changes the world, or would reuse the query scratch arrays, is then
     * refused (carom_check_unlocked). locked_by says by what, for the message; NULL: a step. */
    bool locked;
    const char* locked_by;
};

/* Bring world->awake_bodies and world->awake_contacts up to date (see there). */
void carom_refresh_awake_lists(carom_world* world);
/* Note that the contact with this id was created or destroyed (change: one of these), for the
 * awake contact list. */
enum { CAROM_CONTACT_CREATED = 1, CAROM_CONTACT_DESTROYED = 2 };
void carom_mark_contact_changed(carom_world* world, int contact_id, unsigned char change);

/* Empty every event list (contact, sensor, hit and body move events): a step starts its own, and
 * a restored world has none. */
void carom_world_clear_events(carom_world* world);
/* The checks carom_create_world makes of a def (status and message recorded on failure). */
carom_status carom_check_world_def(const carom_world_def* def);
/* Resolve a world id, or NULL with CAROM_ERROR_INVALID_ID recorded. */
carom_world* carom_get_world_checked(carom_world_id id);
/* The world for a body or shape id's world fields, or NULL. */
carom_world* carom_get_world_from_parts(uint16_t world0, uint16_t world_generation);
/* CAROM_ERROR_WORLD_LOCKED (recorded) while the world is stepping or calling back, else
 * CAROM_OK. */
carom_status carom_check_unlocked(const carom_world* world, const char* action);
/* Lock the world around calls to user callbacks. holder finishes the refusal message "cannot
 * <action> <holder>", e.g. "inside a ray-cast callback; do it after carom_world_cast_ray
 * returns"; a string literal. */
void carom_lock_world(carom_world* world, const char* holder);
void carom_unlock_world(carom_world* world);

/* The public id of a body of this world: inline, as every step makes one per moved body for its
 * move events. */
static inline carom_body_id carom_make_body_id(const carom_world* world, const carom_body* body) {
    carom_body_id id = {body->id + 1, body->generation, world->index, world->generation};
    return id;
}

#endif
