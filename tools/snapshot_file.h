/* Snapshot files: what `carom run --save` writes and `carom resume` reads (docs/cli.md).
 *
 * The engine's snapshot (carom_world_save with CAROM_SNAPSHOT_FULL) holds the world, but a run
 * is more than its world: the outputs are defined over the scene file's bodies (their names and
 * order, their shapes as written), and the run has a dt and a step number of its own. So a
 * snapshot file is a small container around the engine's bytes: the run's dt, the step reached,
 * the substeps the world was built with, the scene file's text exactly as it was read, then the
 * engine snapshot, then a checksum of all of it. Every integer is explicit little-endian, never
 * a memory image, so a file moves between machines the way the engine's part does.
 *
 *   offset      bytes  field
 *   0           8      magic, the ASCII bytes "CAROMCLI"
 *   8           4      container version, 1
 *   12          4      substeps the world was built with: 0 (the engine's default) or 1 to 64
 *   16          8      dt in seconds: the IEEE-754 bits of a double > 0, at most 1e12
 *   24          8      steps run so far, at most 2^53 - 1
 *   32          8      S, bytes of scene text: 1 to 64 MiB
 *   40          S      the scene file's bytes, as read
 *   40 + S      8      E, bytes of the engine snapshot: at least 1
 *   48 + S      E      carom_world_save(world, CAROM_SNAPSHOT_FULL, ...)
 *   48 + S + E  8      FNV-1a 64 of bytes 0 to 48 + S + E - 1
 *
 * Reading checks all of it before anything is built and explains a refusal in one line. */
#ifndef CAROM_TOOLS_SNAPSHOT_FILE_H
#define CAROM_TOOLS_SNAPSHOT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SNAPSHOT_FILE_VERSION 1
/* The biggest snapshot file read, in bytes: a scene of the largest size with room to spare for
 * its engine snapshot, and a bound on the memory a hostile file can make resume take. */
#define SNAPSHOT_FILE_MAX_BYTES (256u * 1024u * 1024u)
/* Step numbers stay exact as doubles (the trace's time is step × dt in doubles). */
#define SNAPSHOT_FILE_MAX_STEP 9007199254740991u /* 2^53 - 1 */

/* The magic's length: the bytes a file needs to be told a snapshot file. */
#define SNAPSHOT_FILE_MAGIC_SIZE 8

typedef struct snapshot_file {
    double dt;         /* s, > 0 */
    uint64_t step;     /* steps run since the scene's state, the trace's step number */
    int substeps;      /* the world was built with: 0 for the engine's default, else 1 to 64 */
    const char* scene; /* the scene file's bytes, as read (not terminated) */
    size_t scene_size;
    const unsigned char* engine; /* a CAROM_SNAPSHOT_FULL engine snapshot */
    size_t engine_size;
    int body_count; /* bodies in the engine snapshot: parse fills it in, write ignores it */
} snapshot_file;

/* Write a snapshot file. A failed write stops it and leaves the file's error indicator set
 * (ferror), which the caller checks when it closes the file, as for its other outputs. */
void snapshot_file_write(FILE* file, const snapshot_file* snapshot);

/* The bytes a snapshot file of this content takes. */
uint64_t snapshot_file_size(const snapshot_file* snapshot);

/* Check the size bytes at data as a snapshot file: structure, version, checksum, every field's
 * range, and the engine part through carom_snapshot_get_info (a scene part and a state part,
 * their checksums). On success *out points into data. On failure, a one-line reason (without a
 * file name) goes into reason. */
bool snapshot_file_parse(const unsigned char* data, size_t size, snapshot_file* out, char* reason,
                         size_t reason_size);

/* Whether the size bytes at head begin with a snapshot file's magic: how a command that takes a
 * scene file or a snapshot file tells them apart before reading either. */
bool snapshot_file_has_magic(const void* head, size_t size);

#endif
