/* Snapshots (include/carom/snapshot.h): the engine's side. */
#ifndef CAROM_SNAPSHOT_INTERNAL_H
#define CAROM_SNAPSHOT_INTERNAL_H

#include "carom/carom.h"

typedef struct carom_world carom_world;

/* Free the world's snapshot decoding scratch, if any. */
void carom_snapshot_destroy(carom_world* world);

#endif
