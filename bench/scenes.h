/* The named scenes of ../shared/bench-scenes.md, built once in C and shared by the benchmark,
 * the tests and the demos, so the pyramid that is timed is the pyramid that is tested.
 * Each builder adds its bodies to an existing world (its gravity is the caller's business;
 * carom_scene_world_def() gives the one the scene is specified with) and returns the number
 * of dynamic bodies, writing their ids to `bodies` when it is not NULL.
 * The scenes themselves are described engine-neutrally in scene_desc.h, which the peer engines
 * of the benchmark build from too. */
#ifndef CAROM_SCENES_H
#define CAROM_SCENES_H

#include <carom/carom.h>

#include "scene_desc.h"

/* The world def a scene is specified with (gravity (0, -10), or zero for the arena and the
 * smash), carom's defaults otherwise. */
carom_world_def carom_scene_world_def(carom_scene_kind kind);
/* How many dynamic bodies carom_scene_build() makes for size n, or -1 if n < 1 or they would be
 * more than CAROM_SCENE_MAX_BODIES. */
int carom_scene_body_count(carom_scene_kind kind, int n);
/* Build the scene of size n into world with a fixed seed; returns the dynamic body count, or -1
 * if a call into carom failed (carom_last_error() says why). */
int carom_scene_build(carom_world_id world, carom_scene_kind kind, int n, carom_body_id* bodies);
/* Build a described scene into world: one static body holding the walls, then the bodies in
 * order. Returns the dynamic body count, or -1 as carom_scene_build(). */
int carom_scene_build_desc(carom_world_id world, const carom_scene_desc* desc,
                           carom_body_id* bodies);

#endif
