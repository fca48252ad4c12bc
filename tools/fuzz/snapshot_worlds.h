/* Small fixed worlds for the snapshot fuzz target and its seed corpus (docs/fuzzing.md).
 *
 * Between them they use every part of a world a snapshot records: the three body types, every
 * shape type (circle, polygon, box, segment, open and closed chains, one-sided chains), sensors
 * with a surface grip, filters and groups, materials, damping, gravity scale, bullets, bodies
 * that never sleep, a vehicle with its input, id slots reused after a destroy, every kind of
 * joint (format version 3), capsules and rounded polygons (format version 4), and, once stepped, contacts, sleeping islands, pending forces and
 * joint impulses. Built through the public API only, the
 * same on every run, so the corpus can be regenerated bit for bit. */
#ifndef CAROM_FUZZ_SNAPSHOT_WORLDS_H
#define CAROM_FUZZ_SNAPSHOT_WORLDS_H

#include <carom/carom.h>

#include <stddef.h>
#include <stdint.h>

typedef enum snapshot_world_kind {
    SNAPSHOT_WORLD_CIRCLES,  /* three balls of different restitution dropped on a ground box */
    SNAPSHOT_WORLD_STACK,    /* five boxes in a stack: asleep after about a second */
    SNAPSHOT_WORLD_SHAPES,   /* polygons, segment, chains, kinematic body, bullet, filters */
    SNAPSHOT_WORLD_VEHICLE,  /* top-down: a car on a chain track over grass and ice sensors */
    SNAPSHOT_WORLD_REUSED,   /* bodies and shapes destroyed and created again: bumped slots */
    SNAPSHOT_WORLD_SMALL,    /* a few boxes and circles on a ground: the fuzz target's world */
    SNAPSHOT_WORLD_JOINTS,   /* every kind of joint, a destroyed joint slot, joint settings */
    SNAPSHOT_WORLD_ROUNDED,  /* capsules, rounded boxes and polygons (format version 4) */
    SNAPSHOT_WORLD_COUNT
} snapshot_world_kind;

/* A built world and the handles its script drives. */
typedef struct snapshot_world {
    snapshot_world_kind kind;
    carom_world_id world;
    carom_body_id pushed;     /* a dynamic body that gets forces between steps (or null) */
    carom_vehicle_id vehicle; /* the car of SNAPSHOT_WORLD_VEHICLE (or null) */
} snapshot_world;

/* The name of a kind, for file names. */
const char* snapshot_world_name(snapshot_world_kind kind);

/* Build a world of the kind into *out. Returns 0, or -1 if a call into carom failed
 * (carom_last_error() says which); then no world is left behind. */
int snapshot_world_build(snapshot_world_kind kind, snapshot_world* out);

/* Step `step` (0, 1, ...) of the kind's script: set the vehicle's input, step 1/60 s, and after
 * every fifth step push a body, so that saved states hold inputs and pending forces as well as
 * poses. Returns the step's status. */
carom_status snapshot_world_step(const snapshot_world* w, int step);

/* ---- The parts of a snapshot buffer -------------------------------------------------------
 * For the fuzz target's mutator and the corpus maker, which change bytes behind the part
 * checksums and must then make them right again. The layout copies engine/snapshot.h (its
 * header comment): a part is a 32-byte header, magic "CRMS" (scene) or "CRMD" (state), u16
 * version, u16 flags, u64 payload size, u64 payload checksum, u64 scene checksum, then the
 * payload (which starts with the part's counts). fuzz_snapshot's LLVMFuzzerInitialize checks
 * this copy against a snapshot the engine wrote. */
#define SNAPSHOT_HEADER_SIZE 32
#define SNAPSHOT_VERSION_AT 4
#define SNAPSHOT_PAYLOAD_SIZE_AT 8
#define SNAPSHOT_CHECKSUM_AT 16
#define SNAPSHOT_SCENE_CHECKSUM_AT 24

typedef struct snapshot_part {
    size_t at;      /* offset of its header */
    size_t payload; /* payload bytes */
    int is_scene;
} snapshot_part;

/* The parts whose headers are whole, have a magic and announce a payload that fits: at most 2. */
int snapshot_find_parts(const uint8_t* data, size_t size, snapshot_part parts[2]);

/* Rewrite each part's checksum, a scene part's record of itself, and a state part's record of
 * the scene part before it. */
void snapshot_fix_checksums(uint8_t* data, size_t size);

uint64_t snapshot_get_le64(const uint8_t* p);
void snapshot_put_le64(uint8_t* p, uint64_t value);

#endif
