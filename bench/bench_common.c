/* The common main of the benchmark programs: see bench_common.h for the protocol. */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* In the order of carom_scene_kind. */
static const char* const scene_names[] = {
    "rain",  "pyramid",    "arena",   "stack",  "large_pyramid", "many_pyramids",
    "smash", "joint_grid", "spinner", "tumbler"};
#define SCENE_COUNT ((int)(sizeof(scene_names) / sizeof(scene_names[0])))

/* Milliseconds on the given clock: CLOCK_MONOTONIC, or CLOCK_PROCESS_CPUTIME_ID, the CPU time of
 * this process alone, which a busy machine does not inflate while the run waits for a core. */
static double clock_ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* Peak resident set of this process so far, in KiB: Linux's VmHWM, the high-water mark of this
 * address space. Not getrusage's ru_maxrss: Linux carries that across exec, so a run started by
 * a big parent (the Python driver) would report the parent's peak. */
static long peak_kb(void) {
    FILE* status = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
        }
    }
    if (status != NULL) {
        fclose(status);
    }
    if (kb < 0) { /* no /proc: ru_maxrss is right when nothing big exec'ed this process */
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        kb = usage.ru_maxrss;
    }
    return kb;
}

static int usage(const bench_engine* engine) {
    fprintf(stderr,
            "usage: bench_%s SCENE N [--steps S] [--variant V] [--sleep on|off] [--threads T]\n",
            engine->name);
    fprintf(stderr, "  SCENE:");
    for (int i = 0; i < SCENE_COUNT; ++i) {
        fprintf(stderr, "%s %s", i == 0 ? "" : " |", scene_names[i]);
    }
    fprintf(stderr, "\n  N >= 1; S >= 1 (default: the scene's own, 600 or Box2D's count)\n");
    fprintf(stderr, "  V:");
    for (int i = 0; engine->variants[i] != NULL; ++i) {
        fprintf(stderr, " %s%s", engine->variants[i], i == 0 ? " (default)" : "");
    }
    fprintf(stderr, "\n  T: 1 to %d\n", engine->max_threads);
    return 2;
}

/* A whole-string positive integer, or -1. */
static long parse_count(const char* text) {
    char* end;
    errno = 0;
    long value = strtol(text, &end, 10);
    return errno != 0 || end == text || *end != '\0' || value < 1 || value > 100000000 ? -1
                                                                                        : value;
}

typedef struct run_options {
    carom_scene_kind kind;
    int size;
    int steps; /* 0: the scene's own */
    const char* variant;
    int enable_sleep;
    int threads;
} run_options;

static int parse(int argc, char** argv, const bench_engine* engine, run_options* out) {
    if (argc < 3) {
        return -1;
    }
    int kind = -1;
    for (int i = 0; i < SCENE_COUNT; ++i) {
        if (strcmp(argv[1], scene_names[i]) == 0) {
            kind = i;
        }
    }
    long size = parse_count(argv[2]);
    if (kind < 0 || size < 0 || size > 1000000) {
        return -1;
    }
    *out = (run_options){(carom_scene_kind)kind, (int)size, 0, engine->variants[0], 1, 1};
    for (int i = 3; i < argc; i += 2) {
        if (i + 1 >= argc) {
            return -1;
        }
        if (strcmp(argv[i], "--steps") == 0) {
            long steps = parse_count(argv[i + 1]);
            if (steps < 0) {
                return -1;
            }
            out->steps = (int)steps;
        } else if (strcmp(argv[i], "--variant") == 0) {
            out->variant = NULL;
            for (int v = 0; engine->variants[v] != NULL; ++v) {
                if (strcmp(argv[i + 1], engine->variants[v]) == 0) {
                    out->variant = engine->variants[v];
                }
            }
            if (out->variant == NULL) {
                return -1;
            }
        } else if (strcmp(argv[i], "--sleep") == 0) {
            if (strcmp(argv[i + 1], "on") != 0 && strcmp(argv[i + 1], "off") != 0) {
                return -1;
            }
            out->enable_sleep = strcmp(argv[i + 1], "on") == 0;
        } else if (strcmp(argv[i], "--threads") == 0) {
            long threads = parse_count(argv[i + 1]);
            if (threads < 1 || threads > engine->max_threads) {
                return -1;
            }
            out->threads = (int)threads;
        } else {
            return -1;
        }
    }
    return 0;
}

/* How far from its start a body must end to count as drifted (m): the bound a standing
 * large_pyramid keeps every box within (issue 14). */
#define DRIFT_DISTANCE 0.25

typedef struct stability {
    double top_displacement; /* m */
    double max_displacement; /* m; NaN if any body's position is not finite */
    double max_sideways;     /* the largest |dx| (m), slides and shear without the sag */
    int drifted;
    int moved;
    int escaped;
} stability;

static stability measure(const carom_scene_desc* desc, const double* xy) {
    stability s = {0.0, 0.0, 0.0, 0, 0, 0};
    int blown_up = 0;
    for (int i = 0; i < desc->body_count; ++i) {
        double x = xy[2 * i], y = xy[2 * i + 1];
        double dx = x - desc->bodies[i].x, dy = y - desc->bodies[i].y;
        double distance = sqrt(dx * dx + dy * dy);
        blown_up |= !isfinite(distance);
        s.max_displacement = fmax(s.max_displacement, distance);
        s.max_sideways = fmax(s.max_sideways, fabs(dx));
        s.drifted += !(distance <= DRIFT_DISTANCE);
        s.moved += fabs(dx) > 0.5 || fabs(dy) > 0.5;
        s.escaped += !(x >= desc->inside_min_x && x <= desc->inside_max_x &&
                       y >= desc->inside_min_y && y <= desc->inside_max_y);
        if (i == desc->body_count - 1) {
            s.top_displacement = distance;
        }
    }
    if (blown_up) { /* fmax skips NaN: a scene that blew up must not look calm */
        s.max_displacement = NAN;
        s.max_sideways = NAN;
    }
    return s;
}

/* A distance for the JSON line: a scene that blew up has none, and NaN is what Python's json
 * reads. */
static void format_distance(char* out, size_t size, double distance) {
    if (isfinite(distance)) {
        snprintf(out, size, "%.6f", distance);
    } else {
        snprintf(out, size, "NaN");
    }
}

/* Sleeping off means nothing sleeps, not even at creation: the scene's sleepers start awake. */
static void wake_all(carom_scene_desc* desc) {
    for (int i = 0; i < desc->body_count; ++i) {
        desc->bodies[i].asleep = 0;
    }
}

int bench_main(int argc, char** argv, const bench_engine* engine) {
    run_options options;
    if (parse(argc, argv, engine, &options) < 0) {
        return usage(engine);
    }
    long base_kb = peak_kb();
    carom_scene_desc desc;
    if (carom_scene_describe(options.kind, options.size, &desc) < 0) {
        fprintf(stderr, "bench_%s: cannot describe the scene %s %d (too large?)\n", engine->name,
                scene_names[options.kind], options.size);
        carom_scene_desc_free(&desc);
        return 1;
    }
    if (!engine->builds_joint_scenes && !carom_scene_desc_is_plain(&desc)) {
        fprintf(stderr, "bench_%s: the scene %s needs joints, compound or static bodies, filters "
                "or a chain, which this program does not build\n", engine->name,
                scene_names[options.kind]);
        carom_scene_desc_free(&desc);
        return 1;
    }
    if (!options.enable_sleep) {
        wake_all(&desc);
    }
    /* Like for like: Box2D v3's shapes report contact events only where enableContactEvents
     * asks (false by default), Box2D 2.4 and Chipmunk call no listener unless one is set, and
     * nothing here reads them; carom's shapes report them by default. */
    desc.contact_events = 0;
    int steps = options.steps > 0 ? options.steps : desc.steps;
    double* xy = malloc(sizeof(double) * 2 * (size_t)desc.body_count);
    double build_start = clock_ms(CLOCK_MONOTONIC);
    void* world = xy == NULL ? NULL : engine->build(&desc, options.variant, options.enable_sleep,
                                                   options.threads);
    if (world == NULL) {
        fprintf(stderr, "bench_%s: building the scene failed\n", engine->name);
        free(xy);
        carom_scene_desc_free(&desc);
        return 1;
    }
    double step_start = clock_ms(CLOCK_MONOTONIC);
    double cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < steps; ++i) {
        engine->step(world, BENCH_DT);
    }
    double cpu_end = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    double end = clock_ms(CLOCK_MONOTONIC);
    long run_peak_kb = peak_kb();
    engine->positions(world, &desc, xy);
    stability s = measure(&desc, xy);
    char top[32], farthest[32], sideways[32];
    format_distance(top, sizeof top, s.top_displacement);
    format_distance(farthest, sizeof farthest, s.max_displacement);
    format_distance(sideways, sizeof sideways, s.max_sideways);
    printf("{\"engine\": \"%s\", \"variant\": \"%s\", \"sleep\": \"%s\", \"scene\": \"%s\", "
           "\"n\": %d, \"bodies\": %d, \"steps\": %d, \"threads\": %d, \"ms_per_step\": %.6f, "
           "\"wall_ms_per_step\": %.6f, \"build_ms\": %.3f, \"base_kb\": %ld, \"peak_kb\": %ld, "
           "\"top_displacement\": %s, \"max_displacement\": %s, \"max_sideways\": %s, "
           "\"drifted\": %d, \"moved\": %d, \"escaped\": %d}\n",
           engine->name, options.variant, options.enable_sleep ? "on" : "off",
           scene_names[options.kind], options.size, desc.body_count, steps, options.threads,
           (cpu_end - cpu_start) / steps, (end - step_start) / steps, step_start - build_start,
           base_kb, run_peak_kb, top, farthest, sideways, s.drifted, s.moved, s.escaped);
    engine->destroy(world);
    free(xy);
    carom_scene_desc_free(&desc);
    return 0;
}
