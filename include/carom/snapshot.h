/* Snapshots: save a world to bytes and restore it, bit for bit (docs/snapshots.md).
 *
 * A snapshot has two parts:
 * - the scene: the settings a world was created with, its bodies' types, damping and shapes, the
 *   shapes' geometry, materials and filters, vehicles and their definitions, joints and their
 *   settings, and the id slots (so ids held by the application stay valid). It changes only
 *   when bodies, shapes, vehicles or joints are created or destroyed or a shape's material is
 *   set.
 * - the state: everything a step changes. Every body's pose, velocity, rest timer and sleep
 *   state, pending forces, the broad phase's fattened boxes, every contact with its manifold,
 *   accumulated impulses and feature ids, sleeping islands, vehicle inputs, joints' motor
 *   speeds, mouse targets, accumulated impulses and reactions, gravity, substeps and the step
 *   count. Without the contacts' and joints' impulses a restored world would diverge.
 *
 * Stepping a restored world gives exactly the bits the original gave from the same point, in
 * any build on any architecture carom supports: the encoding is explicit (little-endian, fixed
 * widths and LEB128 integers, a format version and a 64-bit checksum per part), never a memory
 * image. The state records the checksum of its scene, so a state is only ever applied to the
 * scene it was taken from.
 *
 * Rollback: keep the state part of each tick (a few tens of bytes per body) and restore it into
 * the same world; when bodies were created or destroyed since, give the scene part with it and
 * the world is rebuilt to match. Save games: keep both parts and create a new world from them.
 *
 * What a snapshot does not hold: user data pointers (a restore keeps the pointer of a body,
 * shape, vehicle or joint whose id is unchanged and sets the others to NULL), and the events of
 * the last step (a restored world reports none until it steps).
 *
 * Loading never trusts the bytes: a truncated, corrupt, hostile or wrong-version buffer is
 * refused with a status and a message, the world is left exactly as it was, and no allocation is
 * larger than a small multiple of the buffer's size. */
#ifndef CAROM_SNAPSHOT_H
#define CAROM_SNAPSHOT_H

#include "base.h"
#include "id.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The newest format version this build writes (6: shapes without contact events; 5: bodies
 * with fixed rotation, a mass override or disabled; 4: capsules and rounded polygons; 3:
 * joints); it reads versions 2 to 6. A world is written in the oldest version that holds it
 * entirely: 2 when no joint was ever created in it and the joint settings are the defaults, 3
 * when it has no capsule or rounded polygon and no body with options, 4 when it has no body with
 * options, 5 when every shape has contact events, so a world that uses none of the newer
 * features keeps the bytes and checksums earlier builds wrote. */
#define CAROM_SNAPSHOT_VERSION 6

/* Which parts carom_world_save writes. */
typedef enum carom_snapshot_parts {
    CAROM_SNAPSHOT_STATE = 1,
    CAROM_SNAPSHOT_SCENE = 2,
    CAROM_SNAPSHOT_FULL = 3 /* the scene part followed by the state part */
} carom_snapshot_parts;

/* Save parts of a world into buffer (capacity bytes). *size receives the bytes written, or the
 * bytes needed. buffer NULL (capacity then ignored) only measures and returns CAROM_OK; a
 * buffer too small returns CAROM_ERROR_BUFFER_TOO_SMALL, with its contents unspecified.
 * Refused during a step. */
CAROM_API carom_status carom_world_save(carom_world_id world, carom_snapshot_parts parts,
                                        void* buffer, size_t capacity, size_t* size);

/* Restore a world from `size` bytes holding a state part, optionally preceded by a scene part
 * (as carom_world_save writes them with CAROM_SNAPSHOT_FULL). With a state part alone the
 * world's scene must be the state's (CAROM_ERROR_SCENE_MISMATCH otherwise). With both, the world
 * is rebuilt to the saved scene first unless it already matches: bodies, shapes and vehicles
 * created since are destroyed, destroyed ones come back under their old ids. The bytes are only
 * read during the call. On any error nothing changes. Refused during a step. */
CAROM_API carom_status carom_world_restore(carom_world_id world, const void* data, size_t size);

/* A new world from a scene part followed by a state part. Null id on failure (see
 * carom_last_error), including when CAROM_MAX_WORLDS worlds exist. */
CAROM_API carom_world_id carom_create_world_from_snapshot(const void* data, size_t size);

/* What a buffer holds, read from its part headers (checksums verified). */
typedef struct carom_snapshot_info {
    int version;
    size_t scene_size;       /* bytes of the scene part, 0 if absent */
    size_t state_size;       /* bytes of the state part, 0 if absent */
    uint64_t scene_checksum; /* identifies the scene (the state part's record of it if no scene) */
    int body_count;          /* bodies in the state part (or the scene part if no state) */
    int contact_count;       /* contacts in the state part, 0 if absent */
    int step_count;          /* the world's step count when saved, 0 if no state part */
} carom_snapshot_info;

/* Describe a buffer of one part or of a scene part followed by a state part. Trailing bytes
 * after the parts are an error. */
CAROM_API carom_status carom_snapshot_get_info(const void* data, size_t size,
                                               carom_snapshot_info* info);

/* The checksum each part's header carries over its payload (docs/snapshots.md has the
 * algorithm), for tools that patch or verify snapshots byte by byte. */
CAROM_API uint64_t carom_snapshot_checksum(const void* data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
