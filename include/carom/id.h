/* carom: opaque ids for worlds, bodies, shapes, vehicles and joints. Stand-alone: needs only <stdint.h>.
 *
 * An id holds a slot index plus one and a generation counter. Destroying an object bumps its
 * slot's generation, so a stale id is refused forever after instead of touching freed memory.
 * World generations are 16 bits: a world slot is retired rather than let its generation wrap
 * (see CAROM_MAX_WORLDS), so a world's id, and its bodies', never become valid again.
 * A zero-initialised id is null. Each kind has its own struct, so mixing kinds does not compile.
 * Ids are plain values: copy and compare them freely; do not build them by hand. */
#ifndef CAROM_ID_H
#define CAROM_ID_H

#include <stdint.h>

typedef struct carom_world_id {
    uint16_t index1;     /* slot index + 1; 0 = null */
    uint16_t generation; /* slot generation when the world was created */
} carom_world_id;

typedef struct carom_body_id {
    int32_t index1;            /* slot index + 1 in its world; 0 = null */
    uint32_t generation;       /* slot generation when the body was created */
    uint16_t world0;           /* world slot index */
    uint16_t world_generation; /* generation of that world slot */
} carom_body_id;

typedef struct carom_shape_id {
    int32_t index1;
    uint32_t generation;
    uint16_t world0;
    uint16_t world_generation;
} carom_shape_id;

/* A vehicle (vehicle.h): lives in its chassis body's world. */
typedef struct carom_vehicle_id {
    int32_t index1;
    uint32_t generation;
    uint16_t world0;
    uint16_t world_generation;
} carom_vehicle_id;

/* A joint (joint.h): lives in its bodies' world. */
typedef struct carom_joint_id {
    int32_t index1;
    uint32_t generation;
    uint16_t world0;
    uint16_t world_generation;
} carom_joint_id;

static const carom_world_id carom_null_world_id = {0, 0};
static const carom_body_id carom_null_body_id = {0, 0, 0, 0};
static const carom_shape_id carom_null_shape_id = {0, 0, 0, 0};
static const carom_vehicle_id carom_null_vehicle_id = {0, 0, 0, 0};
static const carom_joint_id carom_null_joint_id = {0, 0, 0, 0};

/* True for the null id of any kind. */
#define CAROM_IS_NULL(id) ((id).index1 == 0)
#define CAROM_IS_NON_NULL(id) ((id).index1 != 0)

static inline int carom_world_id_equals(carom_world_id a, carom_world_id b) {
    return a.index1 == b.index1 && a.generation == b.generation;
}
static inline int carom_body_id_equals(carom_body_id a, carom_body_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world0 == b.world0 &&
           a.world_generation == b.world_generation;
}
static inline int carom_shape_id_equals(carom_shape_id a, carom_shape_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world0 == b.world0 &&
           a.world_generation == b.world_generation;
}
static inline int carom_vehicle_id_equals(carom_vehicle_id a, carom_vehicle_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world0 == b.world0 &&
           a.world_generation == b.world_generation;
}
static inline int carom_joint_id_equals(carom_joint_id a, carom_joint_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world0 == b.world0 &&
           a.world_generation == b.world_generation;
}

#endif
