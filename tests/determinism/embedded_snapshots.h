/* The golden snapshots compiled into the determinism program: embed_snapshots.py turns every
 * tests/determinism/snapshots/SCENE.snap (the FULL snapshot the reference build saves after step
 * 100 of SCENE) into one entry of this table, so builds run under qemu or node need no file
 * access to load another build's snapshot. See docs/determinism.md. */
#ifndef CAROM_EMBEDDED_SNAPSHOTS_H
#define CAROM_EMBEDDED_SNAPSHOTS_H

#include <stddef.h>

typedef struct carom_embedded_snapshot {
    const char* scene;          /* the determinism program's scene name; NULL ends the table */
    const unsigned char* bytes; /* the snapshot as carom_world_save wrote it */
    size_t size;                /* bytes */
} carom_embedded_snapshot;

/* In scene-name order, ended by an entry whose scene is NULL. */
extern const carom_embedded_snapshot carom_embedded_snapshots[];

#endif
