/* Snapshots (include/carom/snapshot.h, docs/snapshots.md): what the writer (snapshot_write.c)
 * and the reader (snapshot_read.c) share.
 *
 * A buffer holds one or two parts, each a header and a payload. The header (32 bytes):
 *   magic "CRMS" (scene) or "CRMD" (dynamic state), u16 version, u16 flags (0), u64 payload
 *   size, u64 payload checksum, u64 scene checksum (a scene part's is its own payload checksum).
 * Every payload starts with three u32 at fixed places, for carom_snapshot_get_info: live bodies,
 * live shapes (scene) or live contacts (state), and the step count (state; 0 in a scene). The
 * checksum covers them, and loading checks them against what follows, so no byte of a part goes
 * unchecked.
 * Integers are little-endian, doubles their IEEE 754 bits as a little-endian u64, counts and ids
 * in the payload LEB128 varints (signed ones zigzagged). Everything is written field by field in
 * that byte order whatever the host's, never as a memory image, so any build reads any other's
 * bytes.
 *
 * What the state holds per body, and why it fits 64 bytes: the center of mass and the rotation
 * (the origin is derived from them, bit for bit: body.h), the velocities only when non-zero (a
 * sleeping body has none), the rest timer only when running, and per shape its fattened box as
 * four small integers: fat boxes are multiples of CAROM_AABB_QUANTUM, so each side is a whole
 * number of quanta away from the rounded tight box, which is itself derived from the pose.
 *
 * Loading decodes into scratch, validates every value and every index against the scene it
 * will meet, and only then changes the world, so a refused buffer changes nothing. Every count
 * is checked against the bytes left before anything is sized by it, which bounds allocation by
 * the buffer's size. What only has an order is not stored but rebuilt in an order of the
 * restore's own (grid cells, per-body contact lists, the moved list): nothing observable depends
 * on it. */
#ifndef CAROM_SNAPSHOT_INTERNAL_H
#define CAROM_SNAPSHOT_INTERNAL_H

#include "carom/carom.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct carom_world carom_world;

#define HEADER_SIZE 32
#define COUNTS_SIZE 12 /* the three u32 that open a payload */
#define SCENE_MAGIC "CRMS"
#define STATE_MAGIC "CRMD"
/* Fat-box offsets beyond this many quanta (2^40 / 32 m) are refused: no real box is that big. */
#define MAX_FAT_OFFSET ((int64_t)1 << 40)

/* Contact flags in the state: the point count in the low two bits, then these. */
enum { CONTACT_TOUCHING = 4, CONTACT_CACHED = 8, CONTACT_FLAGS_ALL = 15 };

/* Body flags in the state. */
enum {
    BODY_HAS_VELOCITY = 1,
    BODY_HAS_REST_TIME = 2,
    BODY_ASLEEP = 4,
    BODY_HAS_FORCE = 8,
    BODY_SLEEP_ENABLED = 16,
    BODY_FLAGS_ALL = 31
};

/* ---- Little-endian words ---------------------------------------------------------------- */

/* On a little-endian machine a word's bytes are its memory image, and memcpy lets the compiler
 * use one load or store; elsewhere the bytes are assembled by shifts. Same bytes either way. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t carom_load_le64(const uint8_t* p) {
    uint64_t value;
    memcpy(&value, p, sizeof(value));
    return value;
}
static inline void carom_store_le64(uint8_t* p, uint64_t value) { memcpy(p, &value, sizeof(value)); }
#else
static inline uint64_t carom_load_le64(const uint8_t* p) {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) {
        value |= (uint64_t)p[i] << (8 * i);
    }
    return value;
}
static inline void carom_store_le64(uint8_t* p, uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        p[i] = (uint8_t)(value >> (8 * i));
    }
}
#endif

/* The oldest format version this build reads. Version 2 has no joints; version 3 adds the
 * world's joint settings to the scene's world settings, the joints to the scene part (after the
 * vehicles) and their state to the state part (after the vehicles' state); version 4 adds a
 * polygon's radius after its centroid and capsule shapes (type 4: centres and radius); version 5
 * adds a byte of body options (fixed rotation, mass override, disabled) to each live body of the
 * scene part (after its bullet flag: BODY_OPTION_*), followed by the mass override when it has
 * one; version 6 (CAROM_SNAPSHOT_VERSION) lets a shape's hit events byte say that it has no
 * contact events (CAROM_SHAPE_NO_CONTACT_EVENTS, shape.h). */
#define OLDEST_VERSION 2

/* Body options in the scene part (version 5). */
enum {
    BODY_OPTION_FIXED_ROTATION = 1,
    BODY_OPTION_MASS_OVERRIDE = 2,
    BODY_OPTION_DISABLED = 4,
    BODY_OPTIONS_ALL = 7
};

/* The version a world is written in: the oldest that holds all of it, so that worlds keep the
 * bytes, checksums and readers they had: 2 while no joint has ever been created and the joint
 * settings are the defaults, 5 while a body has options (fixed rotation, a mass override,
 * disabled), 4 while it holds a live capsule or rounded polygon, else 3. */
int carom_snapshot_world_version(const carom_world* world);

typedef struct carom_joint carom_joint;
/* The most doubles a joint's state record holds. */
#define CAROM_JOINT_STATE_FIELDS 10
/* The doubles of a joint's state record, in the order they are written: its motor speed (or a
 * mouse joint's target), its accumulated impulses, then its reaction force and torque. fields[i]
 * points into the joint, minimums[i] is the least value a reader accepts. Returns the count. One
 * list for the writer and the reader, so the two cannot disagree on the order. */
int carom_snapshot_joint_state_fields(carom_joint* joint, double** fields, double* minimums);
/* The checksum of the world's scene part, recomputed only after the scene changed
 * (snapshot_write.c). */
uint64_t carom_snapshot_scene_checksum(carom_world* world);
/* Free the world's snapshot decoding scratch, if any (snapshot_read.c). */
void carom_snapshot_destroy(carom_world* world);

#endif
