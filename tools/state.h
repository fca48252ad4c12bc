/* What a run writes: the state file (--out), the trace (--trace) and the state hash (--hash).
 * Every number is written so that it reads back to the same double (format_double). */
#ifndef CAROM_TOOLS_STATE_H
#define CAROM_TOOLS_STATE_H

#include "scene.h"

#include <stdint.h>
#include <stdio.h>

/* The world as a scene file of the same format: the world settings in use (dt is the run's),
 * then every body of the scene, in scene order, with its name, type, damping, bullet flag and
 * shapes as the scene gave them, and its pose and velocities as the engine has them now. The
 * pose is written twice: "angle" for people and "rotation" [cos, sin], the engine's own
 * numbers, which the loader prefers so that a state file reads back bit for bit. Then the
 * joints that still exist, and the vehicles with the input in force and their control scripts
 * from `step` (the steps taken since the scene's state) on, renumbered so that the state file's
 * step 0 is this step. */
void state_write(FILE* file, const scene_def* scene, carom_world_id world,
                 const carom_body_id* body_ids, double dt, int64_t step);

/* The trace: a CSV header, then per recorded step one row per dynamic body. */
void trace_write_header(FILE* file);
void trace_write_step(FILE* file, const scene_def* scene, const carom_body_id* body_ids,
                      int64_t step, double time);

#endif
