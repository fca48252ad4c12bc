/* The command-line protocol shared by the benchmark programs, one per engine (bench_carom.c,
 * peer_chipmunk.c, peer_box2d.cpp), so that bench/run_bench.py drives them all alike:
 *
 *   bench_<engine> SCENE N [--steps S] [--variant V]
 *
 * SCENE is rain, pyramid, arena or stack; N its size (B for the pyramid); S the steps timed
 * (default 600, the specification's); V one of the engine's variants (default: its first).
 * Each run builds the scene from its engine-neutral description (scene_desc.h), times the S steps
 * of dt = 1/60 s with a monotonic clock, and prints one JSON line:
 *
 *   {"engine":..., "variant":..., "scene":..., "n":..., "bodies":..., "steps":...,
 *    "ms_per_step":..., "build_ms":..., "base_kb":..., "peak_kb":...,
 *    "top_displacement":..., "moved":..., "escaped":...}
 *
 * One process per run, so peak_kb (the peak resident set of the whole process, libraries
 * included: Linux's VmHWM) is that run's alone; base_kb is the same before the scene is built. top_displacement is how far the last-created body (the pyramid's top box) ended from
 * its start (m); moved counts bodies that ended more than half a unit box (0.5 m) from their
 * start along x or y (the definition tests/test_solver.c uses for a pyramid box that left its
 * row); escaped counts bodies whose center ended outside the walls (scene_desc.h). */
#ifndef CAROM_BENCH_COMMON_H
#define CAROM_BENCH_COMMON_H

#include "scene_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fixed step of every scene (s). */
#define BENCH_DT (1.0 / 60.0)

/* One engine, as the common main sees it. world is the engine's own object, opaque here. */
typedef struct bench_engine {
    const char* name;            /* "carom", "chipmunk", "box2d" */
    const char* const* variants; /* NULL-terminated; the first is the default */
    /* Build the described scene with the given variant; NULL on failure. */
    void* (*build)(const carom_scene_desc* desc, const char* variant);
    void (*step)(void* world, double dt);
    /* Write the body positions (m), x then y, in description order: 2 * body_count values. */
    void (*positions)(void* world, const carom_scene_desc* desc, double* xy);
    void (*destroy)(void* world);
} bench_engine;

/* Parse the command line, run, print the JSON line; returns the exit status (0, or 2 for a bad
 * command line, 1 if the engine failed). */
int bench_main(int argc, char** argv, const bench_engine* engine);

#ifdef __cplusplus
}
#endif

#endif
