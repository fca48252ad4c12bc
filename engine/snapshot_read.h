/* Snapshots, the reading half's private interface, shared by its files: snapshot_decode.c (the
 * byte reader and the part headers), snapshot_read_scene.c (the scene part),
 * snapshot_read_state.c (the state part) and snapshot_read.c (committing to the world and the
 * API). The layout they read is in snapshot.h and docs/snapshots.md. */
#ifndef CAROM_SNAPSHOT_READ_H
#define CAROM_SNAPSHOT_READ_H

#include "core.h"
#include "snapshot.h"
#include "world.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Ids and slot counts stay below this so that contact keys (id << 1 | edge) fit an int. */
#define MAX_SLOTS (1 << 29)
/* Tolerances of the checks on loaded geometry: loose enough for any shape carom made, tight
 * enough that what passes is a proper convex polygon with unit normals. */
#define UNIT_TOLERANCE 1e-6

/* Reads fail softly: the first problem is kept with its message, later reads return zeros, and
 * the caller checks `failed` at the end of each record. */
typedef struct reader {
    const uint8_t* data;
    size_t size;
    size_t at;
    bool failed;
    char message[192];
} reader;

typedef struct part_header {
    bool is_scene;
    int version; /* OLDEST_VERSION to CAROM_SNAPSHOT_VERSION */
    size_t payload_size;
    uint64_t checksum;
    uint64_t scene_checksum;
    uint32_t body_count;
    uint32_t second_count; /* shapes (scene) or contacts (state) */
    uint32_t step_count;
    const uint8_t* payload;
} part_header;

/* A buffer is [scene part] state part, or a scene part alone (info only). */
typedef struct part_set {
    part_header scene, state;
    bool has_scene, has_state;
} part_set;

/* A decoded scene, before it replaces the world's: the same arrays the world keeps. */
typedef struct scene_data {
    carom_world_def def;
    carom_body* bodies;
    carom_shape* shapes;
    carom_vehicle* vehicles;
    carom_joint* joints;
    carom_id_pool body_pool, shape_pool, vehicle_pool, joint_pool;
    uint64_t checksum;
} scene_data;

/* What a state's records are checked against, per body and shape slot, in a few bytes. Every
 * restore checks each body record against its slot (live, its type, its shapes) and each contact
 * against its two shapes (live, geometry type, body and its type, sensor flag, filter); read from
 * the scene's own records (a shape is over 500 bytes) that was several scattered cache lines per
 * contact, most of a restore's decoding time. These copies are made from the scene once and kept
 * until it changes (scene_revision), like the scene checksum. */
typedef struct body_slot {
    int first_shape;
    int shape_count;
    int8_t type; /* carom_body_type, or -1 for a free slot */
} body_slot;

typedef struct shape_slot {
    carom_filter filter;
    int body;
    int next_shape;
    bool live;
    bool is_sensor;
    bool reports_touch; /* carom_shape_reports_touch */
    uint8_t rank;      /* carom_contact_rank of its type */
    uint8_t body_type; /* its body's carom_body_type */
} shape_slot;

typedef struct scene_slots {
    body_slot* bodies;
    shape_slot* shapes;
    uint32_t live_bodies;
    uint64_t revision; /* the world's scene_revision they were made from; 0: another scene */
} scene_slots;

/* One body's decoded state. */
typedef struct body_record {
    uint8_t flags;
    carom_vec2 center;
    carom_rot q;
    carom_vec2 linear_velocity;
    double angular_velocity;
    double sleep_time;
    double rest_energy;
    int island;
    carom_vec2 force;
    double torque;
} body_record;

/* A shape's fat box as written (write_fat_box): four offsets in quanta from its tight box rounded
 * outward (lower x, lower y, upper x, upper y), the first doubled, with the moved flag in its
 * low bit. */
typedef struct fat_record {
    int64_t sides[4];
} fat_record;

static inline bool fat_moved(const fat_record* fat) {
    return (fat->sides[0] & 1) != 0;
}

static inline int64_t fat_offset(const fat_record* fat, int side) {
    int64_t value = fat->sides[side];
    return side == 0 ? (value - (value & 1)) / 2 : value;
}

/* The fat box a record gives around a tight box: each side rounded outward to quanta as the
 * broad phase rounds (carom_quantize_fat_aabb), then the record's offset further out. (The same
 * numbers come out of integer arithmetic, but it measured slower than floor and ceil, which the
 * compiler inlines.) */
static inline double fat_side(double tight, int64_t offset, bool lower) {
    double scale = 1.0 / CAROM_AABB_QUANTUM;
    return lower ? (floor(tight * scale) - (double)offset) * CAROM_AABB_QUANTUM
                 : (ceil(tight * scale) + (double)offset) * CAROM_AABB_QUANTUM;
}

static inline carom_aabb fat_box_of(carom_aabb tight, const fat_record* fat) {
    carom_aabb box = {{fat_side(tight.lower.x, fat_offset(fat, 0), true),
                       fat_side(tight.lower.y, fat_offset(fat, 1), true)},
                      {fat_side(tight.upper.x, fat_offset(fat, 2), false),
                       fat_side(tight.upper.y, fat_offset(fat, 3), false)}};
    return box;
}

typedef struct vehicle_record {
    carom_vehicle_input input;
    double steer_lock, steer_angle;
    carom_vec2 wheel_directions[CAROM_VEHICLE_MAX_WHEELS];
    double slip_angles[CAROM_VEHICLE_MAX_WHEELS];
    double surface_grips[CAROM_VEHICLE_MAX_WHEELS];
    double longitudinal_forces[CAROM_VEHICLE_MAX_WHEELS];
    double lateral_forces[CAROM_VEHICLE_MAX_WHEELS];
    int sliding[CAROM_VEHICLE_MAX_WHEELS];
} vehicle_record;

/* A decoded state, kept by the world between restores so that rollback allocates nothing once
 * warm. The contacts array and the pair map are swapped with the world's on commit. */
typedef struct state_data {
    int version; /* the format version decoded */
    carom_vec2 gravity;
    int substeps;
    int step_count;
    double cell_size;
    body_record* bodies; /* by body id */
    fat_record* fats;    /* by shape id */
    carom_contact* contacts;
    carom_id_pool contact_pool;
    carom_hash_map pair_map;
    /* Whether pair_map holds the pair of every live contact in `contacts` and nothing else: true
     * for the world's arrays a commit swaps in, false when a failed decoding left them half
     * written. While it holds, decoding changes only the pairs that changed. */
    bool pairs_known;
    int* new_pairs; /* contacts whose pair is not in pair_map yet */
    carom_id_pool island_pool;
    int* island_members;      /* bodies per island id, for the check that none is empty */
    int* sleepers;            /* the sleeping bodies, in id order */
    uint8_t* posed;           /* by body id: whether the commit changed its pose */
    vehicle_record* vehicles; /* by vehicle id */
    double* joint_values;     /* by joint id, CAROM_JOINT_STATE_FIELDS each (format version 3) */
    uint8_t* marks;
    scene_slots slots; /* what the state is checked against */
} state_data;

struct carom_snapshot_scratch {
    state_data state;
};

/* What a state is checked against: the world's scene, or a decoded one about to replace it. */
typedef struct scene_view {
    const body_slot* bodies;
    int body_slots;
    uint32_t live_bodies;
    const shape_slot* shapes;
    int shape_slots;
    const carom_vehicle* vehicles;
    int vehicle_slots;
    const carom_joint* joints;
    int joint_slots;
} scene_view;

/* ---- The byte reader and the part headers (snapshot_decode.c) ---- */
void reader_fail(reader* r, const char* format, ...)
    __attribute__((format(CAROM_PRINTF_FORMAT, 2, 3)));
void fail_truncated(reader* r);
void fail_index(reader* r, int64_t index, int limit, const char* what);
void fail_number(reader* r, double value, double minimum, const char* what, int index);
uint8_t get_u8(reader* r);
uint64_t get_le(reader* r, int bytes);
uint64_t get_long_uvar(reader* r);
int get_count(reader* r, const char* what);
carom_vec2 get_vec2(reader* r, const char* what, int index);
bool get_flag(reader* r, const char* what, int index);
carom_filter get_filter(reader* r, const char* what, int index);
carom_status split_parts(const void* data, size_t size, part_set* out);

/* ---- The scene part (snapshot_read_scene.c) ---- */
void scene_data_free(scene_data* scene);
/* A def re-checked by the function the API uses, its failure made a snapshot error. */
void check_with(reader* r, carom_status status, const char* what);
void read_world_def(reader* r, carom_world_def* def, int version);
void read_pool(reader* r, carom_id_pool* pool, uint8_t** marks, int extra_slots, const char* what);
void read_scene(reader* r, scene_data* scene, uint8_t** marks, int version);

/* ---- The state part (snapshot_read_state.c) ---- */
void read_state(reader* r, const scene_view* view, state_data* state, int version);

/* ---- The reads every record makes, inline for the restore's hot loops ---- */

/* After a failure every read answers zero without looking. */
static inline bool can_read(reader* r, size_t bytes) {
    if (r->failed) {
        return false;
    }
    if (r->size - r->at < bytes) {
        fail_truncated(r);
        return false;
    }
    return true;
}

static inline double get_f64(reader* r) {
    uint64_t bits = 0;
    if (can_read(r, 8)) {
        bits = carom_load_le64(r->data + r->at);
        r->at += 8;
    }
    double value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static inline uint64_t get_uvar(reader* r) {
    if (!r->failed && r->size - r->at >= 2) {
        const uint8_t* p = r->data + r->at;
        if (p[0] < 0x80) {
            r->at += 1;
            return p[0]; /* the common cases: one byte, and two (ids below 16384) */
        }
        if (p[1] < 0x80) {
            r->at += 2;
            return (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
        }
    }
    return get_long_uvar(r);
}

static inline int64_t unzigzag(uint64_t zigzag) {
    return (int64_t)(zigzag >> 1) ^ -(int64_t)(zigzag & 1);
}

static inline int64_t get_svar(reader* r) {
    return unzigzag(get_uvar(r));
}

static inline int get_index(reader* r, int limit, bool allow_none, const char* what) {
    uint64_t value = get_uvar(r);
    int64_t index = allow_none ? (int64_t)value - 1 : (int64_t)value;
    if (value > (uint64_t)MAX_SLOTS || index >= limit || index < (allow_none ? -1 : 0)) {
        if (!r->failed) {
            fail_index(r, index, limit, what);
        }
        return allow_none ? -1 : 0;
    }
    return r->failed ? (allow_none ? -1 : 0) : (int)index;
}

/* Finite and within CAROM_MAX_MAGNITUDE: NaN fails the comparison, infinity exceeds it. */
static inline bool valid_magnitude(double value) {
    return fabs(value) <= CAROM_MAX_MAGNITUDE;
}

/* A finite double within CAROM_MAX_MAGNITUDE and at least `minimum`. */
static inline double get_number(reader* r, double minimum, const char* what, int index) {
    double value = get_f64(r);
    if (!(valid_magnitude(value) && value >= minimum) && !r->failed) {
        fail_number(r, value, minimum, what, index);
    }
    return value;
}

#endif
