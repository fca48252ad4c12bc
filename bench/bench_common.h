/* The command-line protocol shared by the benchmark programs, one per engine (bench_carom.c,
 * peer_chipmunk.c, peer_box2d.cpp, peer_box2d_v3.c), so that bench/run_bench.py drives them all
 * alike:
 *
 *   bench_<engine> SCENE N [--steps S] [--variant V] [--sleep on|off]
 *
 * SCENE is rain, pyramid, arena, stack, large_pyramid, many_pyramids, smash, joint_grid,
 * spinner or tumbler (the last three only for engines with joints: carom and Box2D v3); N its size (B for
 * the pyramid; scene_desc.h); S the steps timed (default: the scene's own, scene_desc.h's steps:
 * 600, or Box2D's count for its scenes); V one of the engine's variants (default: its first).
 * --sleep off (the default is on) runs the engine with sleeping disabled and creates every body
 * awake, the scene's sleepers included: nothing ever sleeps. --sleep on runs it with sleeping
 * enabled at the engine's own thresholds, with the scene's sleepers created asleep.
 * Each run builds the scene from its engine-neutral description (scene_desc.h), runs the S steps
 * of dt = 1/60 s, timing them with the process's own CPU time (CLOCK_PROCESS_CPUTIME_ID: other
 * jobs on the machine do not count, and every engine here steps on one thread) and with a
 * monotonic clock, and prints one JSON line:
 *
 *   {"engine":..., "variant":..., "sleep": "on"|"off", "scene":..., "n":..., "bodies":...,
 *    "steps":..., "ms_per_step":..., "wall_ms_per_step":..., "build_ms":..., "base_kb":...,
 *    "peak_kb":..., "top_displacement":..., "max_displacement":..., "max_sideways":...,
 *    "drifted":..., "moved":..., "escaped":...}
 *
 * ms_per_step is CPU time, wall_ms_per_step the monotonic clock's. One process per run, so
 * peak_kb (the peak resident set of the whole process, libraries included: Linux's VmHWM) is that
 * run's alone; base_kb is the same before the scene is built. top_displacement is how far the
 * last-created body (the top box of a pyramid) ended from its start (m), max_displacement the
 * farthest any body ended from its start (m), max_sideways the farthest along x alone (a pile's
 * slides and shear without its sag under soft contacts), drifted how many bodies ended more
 * than 0.25 m from their start;
 * moved counts bodies that ended more than half a unit box (0.5 m) from their start along x or y
 * (the definition tests/test_solver.c uses for a pyramid box that left its row); escaped counts
 * bodies whose center ended outside the walls (scene_desc.h). */
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
    const char* name;            /* "carom", "chipmunk", "box2d", "box2d_v3" */
    const char* const* variants; /* NULL-terminated; the first is the default */
    /* Build the described scene with the given variant, with sleeping enabled at the engine's
     * own thresholds (enable_sleep non-zero) or disabled; NULL on failure. With sleeping off,
     * bench_main has already cleared every body's asleep flag. */
    void* (*build)(const carom_scene_desc* desc, const char* variant, int enable_sleep);
    void (*step)(void* world, double dt);
    /* Write the body positions (m), x then y, in description order: 2 * body_count values. */
    void (*positions)(void* world, const carom_scene_desc* desc, double* xy);
    void (*destroy)(void* world);
    /* Non-zero: build() builds the joint scenes too (joint_grid, spinner, tumbler: revolute
     * joints, compound and static bodies, collision filters, a loop chain). Otherwise bench_main
     * refuses a scene that carom_scene_desc_is_plain() rejects, rather than time another scene. */
    int builds_joint_scenes;
} bench_engine;

/* Parse the command line, run, print the JSON line; returns the exit status (0, or 2 for a bad
 * command line, 1 if the engine failed). */
int bench_main(int argc, char** argv, const bench_engine* engine);

#ifdef __cplusplus
}
#endif

#endif
