/* Snapshots, the reading half: validate a buffer against the scene it will meet, then commit
 * it to the world (see snapshot.h for the layout; docs/snapshots.md). */
#include "core.h"

#include "ds.h"
#include "snapshot_read.h"
#include "world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Committing ------------------------------------------------------------------------- */

static void copy_pool(carom_id_pool* to, const carom_id_pool* from) {
    to->next_id = from->next_id;
    arrsetlen(to->free_ids, arrlen(from->free_ids));
    if (arrlen(from->free_ids) > 0) {
        memcpy(to->free_ids, from->free_ids, sizeof(int) * (size_t)arrlen(from->free_ids));
    }
}

/* The scene's joints replace the world's (none from a version 2 scene); user data survives for
 * the same slot and generation; the bodies' joint lists are linked afresh. */
static void commit_scene_joints(carom_world* world, scene_data* scene) {
    for (int i = 0; i < (int)arrlen(scene->joints) && i < (int)arrlen(world->joints); ++i) {
        const carom_joint* old = &world->joints[i];
        if (old->id >= 0 && scene->joints[i].id >= 0 &&
            old->generation == scene->joints[i].generation) {
            scene->joints[i].user_data = old->user_data;
        }
    }
    carom_joint* joints = world->joints;
    world->joints = scene->joints;
    scene->joints = joints;
    copy_pool(&world->joint_pool, &scene->joint_pool);
    carom_relink_joints(world);
}

/* Replace the world's bodies, shapes and vehicles with a decoded scene. User data survives for
 * ids that are the same slot and generation. The broad phase starts afresh (the state places
 * the proxies), contacts and islands are dropped (the state brings its own). */
static void commit_scene(carom_world* world, scene_data* scene) {
    for (int i = 0; i < (int)arrlen(scene->bodies) && i < (int)arrlen(world->bodies); ++i) {
        const carom_body* old = &world->bodies[i];
        if (old->id >= 0 && scene->bodies[i].id >= 0 &&
            old->generation == scene->bodies[i].generation) {
            scene->bodies[i].user_data = old->user_data;
        }
    }
    for (int i = 0; i < (int)arrlen(scene->shapes) && i < (int)arrlen(world->shapes); ++i) {
        const carom_shape* old = &world->shapes[i];
        if (old->id >= 0 && scene->shapes[i].id >= 0 &&
            old->generation == scene->shapes[i].generation) {
            scene->shapes[i].user_data = old->user_data;
        }
    }
    for (int i = 0; i < (int)arrlen(scene->vehicles) && i < (int)arrlen(world->vehicles); ++i) {
        const carom_vehicle* old = &world->vehicles[i];
        if (old->id >= 0 && scene->vehicles[i].id >= 0 &&
            old->generation == scene->vehicles[i].generation) {
            scene->vehicles[i].def.user_data = old->def.user_data;
        }
    }
    carom_body* bodies = world->bodies;
    world->bodies = scene->bodies;
    scene->bodies = bodies;
    carom_shape* shapes = world->shapes;
    world->shapes = scene->shapes;
    scene->shapes = shapes;
    carom_vehicle* vehicles = world->vehicles;
    world->vehicles = scene->vehicles;
    scene->vehicles = vehicles;
    commit_scene_joints(world, scene);
    copy_pool(&world->body_pool, &scene->body_pool);
    copy_pool(&world->shape_pool, &scene->shape_pool);
    copy_pool(&world->vehicle_pool, &scene->vehicle_pool);

    carom_world_def def = scene->def;
    def.gravity = world->def.gravity;
    def.substeps = world->def.substeps;
    def.max_contacts = world->def.max_contacts; /* the world's resource limit, not the scene's */
    /* the world's threads, not the scene's */
    def.worker_count = world->def.worker_count;
    def.enqueue_task = world->def.enqueue_task;
    def.finish_task = world->def.finish_task;
    def.user_task_context = world->def.user_task_context;
    world->def = def;
    carom_broad_phase_destroy(&world->broad_phase);
    carom_broad_phase_init(&world->broad_phase, def.cell_size);
    world->massless_dynamic_count = 0;
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        carom_body* body = &world->bodies[i];
        if (body->id >= 0) {
            carom_body_update_mass(world, body);
        }
    }
    for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
        const carom_shape* shape = &world->shapes[i];
        if (shape->id >= 0) {
            const carom_body* body = &world->bodies[shape->body];
            carom_aabb none = {{0.0, 0.0}, {0.0, 0.0}};
            carom_broad_phase_create_proxy(&world->broad_phase, i, none, body->id, body->type,
                                           shape->filter, shape->is_sensor);
            world->broad_phase.proxies[i].disabled = body->disabled;
        }
    }
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        carom_vehicle* vehicle = &world->vehicles[i];
        if (vehicle->id >= 0) {
            vehicle->body_generation = world->bodies[vehicle->body].generation;
            carom_vehicle_prepare_geometry(vehicle);
        }
    }
    world->scene_revision += 1;
    world->scene_checksum = scene->checksum;
    world->scene_checksum_revision = world->scene_revision;
}

/* Whether the body already has the record's pose, bit for bit (a body asleep since the save, in
 * a rollback). Its origin and its shapes' tight boxes are functions of the pose and the scene, so
 * they are then right as they are: deriving them again would give the same bits. */
static bool has_pose(const carom_body* body, const body_record* record) {
    return memcmp(&body->center, &record->center, sizeof(record->center)) == 0 &&
           memcmp(&body->transform.q, &record->q, sizeof(record->q)) == 0;
}

/* The bodies' records; posed[b] tells whether body b's pose changed. `scene_kept`: the world's
 * scene was not replaced by this restore, so its bodies' poses, origins and tight boxes agree (a
 * replaced scene's bodies have no pose yet).
 *
 * Bodies, tight boxes and fat boxes are committed in three passes, not in one pass body by body:
 * each is a short loop whose iterations the processor overlaps, where in the long one (a body,
 * its shapes' boxes, their proxies) it waited on one chain of loads and arithmetic after
 * another. Measured on the 5,000-body arena: 160 µs instead of 225. */
static void commit_bodies(carom_world* world, const state_data* state, bool scene_kept,
                          uint8_t* posed) {
    for (int b = 0; b < (int)arrlen(world->bodies); ++b) {
        carom_body* body = &world->bodies[b];
        const body_record* record = &state->bodies[b];
        if (state->slots.bodies[b].type < 0) {
            continue;
        }
        posed[b] = !(scene_kept && has_pose(body, record));
        if (posed[b]) {
            body->center = record->center;
            body->transform.q = record->q;
            carom_body_derive_origin(body);
        }
        body->linear_velocity = record->linear_velocity;
        body->angular_velocity = record->angular_velocity;
        body->sleep_time = record->sleep_time;
        body->rest_energy = record->rest_energy;
        body->asleep = (record->flags & BODY_ASLEEP) != 0;
        body->island = record->island;
        body->enable_sleep = (record->flags & BODY_SLEEP_ENABLED) != 0;
        body->force = record->force;
        body->torque = record->torque;
        /* the sweep is left alone: the next step sets it before reading it */
    }
}

/* Each live shape's tight box, from its body's pose where that changed. */
static void commit_tight_boxes(carom_world* world, const state_data* state, const uint8_t* posed) {
    for (int s = 0; s < (int)arrlen(world->shapes); ++s) {
        const shape_slot* slot = &state->slots.shapes[s];
        if (slot->live && posed[slot->body]) {
            carom_shape* shape = &world->shapes[s];
            shape->aabb = carom_shape_compute_aabb(shape, world->bodies[slot->body].transform);
        }
    }
}

/* Each live shape's fat box and moved flag, into the broad phase (in shape id order). */
static void commit_fat_boxes(carom_world* world, const state_data* state) {
    for (int s = 0; s < (int)arrlen(world->shapes); ++s) {
        if (state->slots.shapes[s].live) {
            const fat_record* fat = &state->fats[s];
            carom_aabb box = fat_box_of(world->shapes[s].aabb, fat);
            carom_broad_phase_restore_proxy_if_changed(&world->broad_phase, s, &box,
                                                       fat_moved(fat));
        }
    }
}

/* Islands: the pool as saved, each live island listing its bodies in id order as
 * carom_sleep_step made them. The islands array is exactly as long as the pool has slots. */
static void commit_islands(carom_world* world, const state_data* state) {
    copy_pool(&world->island_pool, &state->island_pool);
    int slots = state->island_pool.next_id;
    for (int i = slots; i < (int)arrlen(world->islands); ++i) {
        arrfree(world->islands[i].bodies);
    }
    if ((int)arrlen(world->islands) > slots) {
        arrsetlen(world->islands, slots);
    }
    while ((int)arrlen(world->islands) < slots) {
        carom_island blank = {-1, NULL};
        arrput(world->islands, blank);
    }
    for (int i = 0; i < slots; ++i) {
        /* state->marks holds the island pool's free marks: read_pool for islands came last */
        world->islands[i].id = state->marks[i] ? -1 : i;
        arrsetlen(world->islands[i].bodies, 0);
    }
    for (int k = 0; k < (int)arrlen(state->sleepers); ++k) {
        int b = state->sleepers[k];
        arrput(world->islands[state->bodies[b].island].bodies, b);
    }
}

/* The decoded contacts and their pair map are swapped in, not copied. */
static void commit_contacts(carom_world* world, state_data* state) {
    carom_contact* contacts = world->contacts;
    world->contacts = state->contacts;
    state->contacts = contacts;
    carom_hash_map pair_map = world->pair_map;
    world->pair_map = state->pair_map;
    state->pair_map = pair_map;
    copy_pool(&world->contact_pool, &state->contact_pool);
    state->pairs_known = true; /* the world keeps its map in step with its contacts */
    carom_relink_contacts(world);
}

static void commit_vehicles(carom_world* world, const state_data* state) {
    for (int v = 0; v < (int)arrlen(world->vehicles); ++v) {
        carom_vehicle* vehicle = &world->vehicles[v];
        if (vehicle->id < 0) {
            continue;
        }
        const vehicle_record* record = &state->vehicles[v];
        vehicle->input = record->input;
        vehicle->steer_lock = record->steer_lock;
        vehicle->steer_angle = record->steer_angle;
        for (int i = 0; i < vehicle->def.wheel_count; ++i) {
            vehicle->wheel_directions[i] = record->wheel_directions[i];
            vehicle->slip_angles[i] = record->slip_angles[i];
            vehicle->surface_grips[i] = record->surface_grips[i];
            vehicle->longitudinal_forces[i] = record->longitudinal_forces[i];
            vehicle->lateral_forces[i] = record->lateral_forces[i];
            vehicle->sliding[i] = record->sliding[i];
        }
    }
}

/* Each live joint's state record; break events of the last step are not kept. */
static void commit_joints(carom_world* world, const state_data* state) {
    for (int j = 0; state->version >= 3 && j < (int)arrlen(world->joints); ++j) {
        carom_joint* joint = &world->joints[j];
        if (joint->id < 0) {
            continue;
        }
        double* fields[CAROM_JOINT_STATE_FIELDS];
        double minimums[CAROM_JOINT_STATE_FIELDS];
        int count = carom_snapshot_joint_state_fields(joint, fields, minimums);
        const double* values = state->joint_values + (size_t)j * CAROM_JOINT_STATE_FIELDS;
        for (int i = 0; i < count; ++i) {
            *fields[i] = values[i];
        }
    }
    arrsetlen(world->joint_break_events, 0);
}

static void commit_state(carom_world* world, state_data* state, bool scene_kept) {
    world->awake_revision += 1;
    world->def.gravity = state->gravity;
    world->def.substeps = state->substeps;
    world->step_count = state->step_count;
    commit_contacts(world, state);
    /* tight boxes need the bodies' poses, fat boxes the tight boxes and the grid's cell size */
    arrsetlen(state->posed, arrlen(world->bodies));
    commit_bodies(world, state, scene_kept, state->posed);
    commit_tight_boxes(world, state, state->posed);
    carom_broad_phase_restore_cell_size(&world->broad_phase, state->cell_size);
    commit_fat_boxes(world, state);
    commit_islands(world, state);
    commit_vehicles(world, state);
    commit_joints(world, state);
    carom_world_clear_events(world);
    /* The solver's lanes hold the last step before the restore, not the restored one's: no lane
     * is refreshed from them (the restored contacts also mix their materials again, which
     * would refuse it contact by contact). A kept layout would be right, being a function of
     * the constraints alone; it is dropped with the lanes, at the cost of one colouring. */
    world->solver.layout_lanes = 0;
}

/* ---- The API ---------------------------------------------------------------------------- */

static state_data* world_state_scratch(carom_world* world) {
    if (world->snapshot == NULL) {
        world->snapshot = carom_alloc(sizeof(*world->snapshot));
        memset(world->snapshot, 0, sizeof(*world->snapshot));
    }
    return &world->snapshot->state;
}

void carom_snapshot_destroy(carom_world* world) {
    if (world->snapshot == NULL) {
        return;
    }
    state_data* state = &world->snapshot->state;
    arrfree(state->bodies);
    arrfree(state->fats);
    arrfree(state->contacts);
    arrfree(state->new_pairs);
    carom_id_pool_destroy(&state->contact_pool);
    carom_hash_map_destroy(&state->pair_map);
    carom_id_pool_destroy(&state->island_pool);
    arrfree(state->island_members);
    arrfree(state->sleepers);
    arrfree(state->posed);
    arrfree(state->slots.bodies);
    arrfree(state->slots.shapes);
    arrfree(state->vehicles);
    arrfree(state->joint_values);
    arrfree(state->marks);
    carom_free(world->snapshot);
    world->snapshot = NULL;
}

static uint32_t live_count(carom_id_pool pool) {
    return (uint32_t)carom_id_pool_count(&pool);
}

/* The counts that open a payload must be what the payload holds. */
static void check_counts(reader* r, const part_header* header, uint32_t bodies, uint32_t second,
                         uint32_t steps) {
    if (!r->failed && (header->body_count != bodies || header->second_count != second ||
                       header->step_count != steps)) {
        reader_fail(r,
                    "its counts (%u bodies, %u %s, step %u) disagree with its contents (%u, "
                    "%u, %u)",
                    header->body_count, header->second_count,
                    header->is_scene ? "shapes" : "contacts", header->step_count, bodies, second,
                    steps);
    }
}

static carom_status reader_status(const reader* r, const char* part) {
    return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT, "snapshot %s part: %s", part, r->message);
}

/* The slots of scene arrays: the world's own, or a decoded scene's (the same kinds of array). */
static void make_slots(scene_slots* slots, const carom_body* bodies, const carom_shape* shapes,
                       const carom_id_pool* body_pool) {
    arrsetlen(slots->bodies, arrlen(bodies));
    for (int b = 0; b < (int)arrlen(bodies); ++b) {
        slots->bodies[b].first_shape = bodies[b].first_shape;
        slots->bodies[b].shape_count = bodies[b].shape_count;
        slots->bodies[b].type = (int8_t)(bodies[b].id >= 0 ? (int)bodies[b].type : -1);
    }
    arrsetlen(slots->shapes, arrlen(shapes));
    for (int s = 0; s < (int)arrlen(shapes); ++s) {
        const carom_shape* shape = &shapes[s];
        shape_slot* slot = &slots->shapes[s];
        memset(slot, 0, sizeof(*slot));
        if (shape->id < 0) {
            continue;
        }
        slot->filter = shape->filter;
        slot->body = shape->body;
        slot->next_shape = shape->next_shape;
        slot->live = true;
        slot->is_sensor = shape->is_sensor;
        slot->reports_touch = carom_shape_reports_touch(shape);
        slot->rank = (uint8_t)carom_contact_rank(shape->type);
        slot->body_type = (uint8_t)bodies[shape->body].type;
    }
    slots->live_bodies = (uint32_t)carom_id_pool_count(body_pool);
}

/* What a state is checked against: a decoded scene, or the world's (its slots made again only
 * when its scene changed). */
static scene_view view_of(state_data* state, const carom_body* bodies, const carom_shape* shapes,
                          const carom_vehicle* vehicles, const carom_joint* joints,
                          const carom_id_pool* body_pool, uint64_t revision) {
    scene_slots* slots = &state->slots;
    if (revision == 0 || revision != slots->revision) {
        make_slots(slots, bodies, shapes, body_pool);
        slots->revision = revision;
    }
    scene_view view = {slots->bodies,
                       (int)arrlen(slots->bodies),
                       slots->live_bodies,
                       slots->shapes,
                       (int)arrlen(slots->shapes),
                       vehicles,
                       (int)arrlen(vehicles),
                       joints,
                       (int)arrlen(joints)};
    return view;
}

/* Decode the scene part if the world does not have it already. *decoded tells which. */
static carom_status load_scene(carom_world* world, const part_set* p, scene_data* scene,
                               bool* decoded) {
    *decoded = false;
    if (!p->has_scene) {
        if (carom_snapshot_scene_checksum(world) != p->state.scene_checksum) {
            return carom_fail(CAROM_ERROR_SCENE_MISMATCH,
                              "snapshot: the state belongs to scene %016llx but the world's "
                              "scene is %016llx (bodies, shapes or vehicles were created or "
                              "destroyed, or materials set, since): give the scene part too",
                              (unsigned long long)p->state.scene_checksum,
                              (unsigned long long)carom_snapshot_scene_checksum(world));
        }
        return CAROM_OK;
    }
    if (carom_snapshot_scene_checksum(world) == p->scene.checksum) {
        return CAROM_OK;
    }
    reader r = {p->scene.payload, p->scene.payload_size, COUNTS_SIZE, false, ""};
    read_scene(&r, scene, &world_state_scratch(world)->marks, p->scene.version);
    check_counts(&r, &p->scene, live_count(scene->body_pool), live_count(scene->shape_pool), 0);
    if (r.failed) {
        return reader_status(&r, "scene");
    }
    scene->checksum = p->scene.checksum;
    *decoded = true;
    return CAROM_OK;
}

static carom_status restore(carom_world* world, const part_set* p) {
    scene_data scene;
    memset(&scene, 0, sizeof(scene));
    bool decoded = false;
    carom_status status = load_scene(world, p, &scene, &decoded);
    if (status == CAROM_OK) {
        state_data* state = world_state_scratch(world);
        scene_view view = decoded
                              ? view_of(state, scene.bodies, scene.shapes, scene.vehicles,
                                        scene.joints, &scene.body_pool, 0)
                              : view_of(state, world->bodies, world->shapes, world->vehicles,
                                        world->joints, &world->body_pool, world->scene_revision);
        reader r = {p->state.payload, p->state.payload_size, COUNTS_SIZE, false, ""};
        read_state(&r, &view, state, p->state.version);
        check_counts(&r, &p->state, view.live_bodies, live_count(state->contact_pool),
                     (uint32_t)state->step_count);
        if (r.failed) {
            status = reader_status(&r, "state");
        } else {
            if (decoded) {
                commit_scene(world, &scene);
            }
            commit_state(world, state, !decoded);
        }
    }
    scene_data_free(&scene);
    return status;
}

carom_status carom_world_restore(carom_world_id id, const void* data, size_t size) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "restore a snapshot");
    part_set p;
    if (status == CAROM_OK) {
        status = split_parts(data, size, &p);
    }
    if (status == CAROM_OK && !p.has_state) {
        status = carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                            "snapshot: the buffer holds a scene part but no state part: a "
                            "restore needs the state (save with CAROM_SNAPSHOT_FULL)");
    }
    return status == CAROM_OK ? restore(world, &p) : status;
}

carom_world_id carom_create_world_from_snapshot(const void* data, size_t size) {
    part_set p;
    if (split_parts(data, size, &p) != CAROM_OK) {
        return carom_null_world_id;
    }
    if (!p.has_scene || !p.has_state) {
        carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                   "snapshot: a new world needs a scene part followed by a state part (save "
                   "with CAROM_SNAPSHOT_FULL)");
        return carom_null_world_id;
    }
    /* The world is made from the scene's settings; the restore then fills it. */
    scene_data scene;
    memset(&scene, 0, sizeof(scene));
    reader r = {p.scene.payload, p.scene.payload_size, COUNTS_SIZE, false, ""};
    read_world_def(&r, &scene.def, p.scene.version);
    if (r.failed) {
        reader_status(&r, "scene");
        return carom_null_world_id;
    }
    carom_world_id id = carom_create_world(&scene.def);
    if (CAROM_IS_NULL(id)) {
        return id;
    }
    if (restore(carom_get_world_checked(id), &p) != CAROM_OK) {
        carom_status status = carom_last_status();
        char message[256];
        snprintf(message, sizeof(message), "%s", carom_last_error());
        carom_destroy_world(id);
        carom_fail(status, "%s", message);
        return carom_null_world_id;
    }
    return id;
}

carom_status carom_snapshot_get_info(const void* data, size_t size, carom_snapshot_info* info) {
    if (info == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "snapshot info output pointer is NULL");
    }
    part_set p;
    carom_status status = split_parts(data, size, &p);
    if (status != CAROM_OK) {
        return status;
    }
    memset(info, 0, sizeof(*info));
    info->version = p.has_scene ? p.scene.version : p.state.version;
    if (p.has_scene) {
        info->scene_size = HEADER_SIZE + p.scene.payload_size;
        info->scene_checksum = p.scene.checksum;
        info->body_count = (int)p.scene.body_count;
    }
    if (p.has_state) {
        info->state_size = HEADER_SIZE + p.state.payload_size;
        info->scene_checksum = p.state.scene_checksum;
        info->body_count = (int)p.state.body_count;
        info->contact_count = (int)p.state.second_count;
        info->step_count = (int)p.state.step_count;
    }
    return CAROM_OK;
}
