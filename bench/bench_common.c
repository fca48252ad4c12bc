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

static const char* const scene_names[] = {"rain", "pyramid", "arena", "stack"};
#define SCENE_COUNT ((int)(sizeof(scene_names) / sizeof(scene_names[0])))

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
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
    fprintf(stderr, "usage: bench_%s SCENE N [--steps S] [--variant V]\n", engine->name);
    fprintf(stderr, "  SCENE: rain | pyramid | arena | stack; N >= 1; S >= 1 (default 600)\n");
    fprintf(stderr, "  V:");
    for (int i = 0; engine->variants[i] != NULL; ++i) {
        fprintf(stderr, " %s%s", engine->variants[i], i == 0 ? " (default)" : "");
    }
    fprintf(stderr, "\n");
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
    int steps;
    const char* variant;
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
    *out = (run_options){(carom_scene_kind)kind, (int)size, 600, engine->variants[0]};
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
        } else {
            return -1;
        }
    }
    return 0;
}

typedef struct stability {
    double top_displacement; /* m */
    int moved;
    int escaped;
} stability;

static stability measure(const carom_scene_desc* desc, const double* xy) {
    stability s = {0.0, 0, 0};
    for (int i = 0; i < desc->body_count; ++i) {
        double x = xy[2 * i], y = xy[2 * i + 1];
        double dx = x - desc->bodies[i].x, dy = y - desc->bodies[i].y;
        s.moved += fabs(dx) > 0.5 || fabs(dy) > 0.5;
        s.escaped += !(x >= desc->inside_min_x && x <= desc->inside_max_x &&
                       y >= desc->inside_min_y && y <= desc->inside_max_y);
        if (i == desc->body_count - 1) {
            s.top_displacement = sqrt(dx * dx + dy * dy);
        }
    }
    return s;
}

int bench_main(int argc, char** argv, const bench_engine* engine) {
    run_options options;
    if (parse(argc, argv, engine, &options) < 0) {
        return usage(engine);
    }
    long base_kb = peak_kb();
    carom_scene_desc desc;
    if (carom_scene_describe(options.kind, options.size, &desc) < 0) {
        fprintf(stderr, "bench_%s: cannot describe the scene\n", engine->name);
        return 1;
    }
    double* xy = malloc(sizeof(double) * 2 * (size_t)desc.body_count);
    double build_start = now_ms();
    void* world = xy == NULL ? NULL : engine->build(&desc, options.variant);
    if (world == NULL) {
        fprintf(stderr, "bench_%s: building the scene failed\n", engine->name);
        free(xy);
        carom_scene_desc_free(&desc);
        return 1;
    }
    double step_start = now_ms();
    for (int i = 0; i < options.steps; ++i) {
        engine->step(world, BENCH_DT);
    }
    double end = now_ms();
    long run_peak_kb = peak_kb();
    engine->positions(world, &desc, xy);
    stability s = measure(&desc, xy);
    /* A scene that blew up has no finite displacement; NaN is what Python's json reads. */
    char top[32] = "NaN";
    if (isfinite(s.top_displacement)) {
        snprintf(top, sizeof top, "%.6f", s.top_displacement);
    }
    printf("{\"engine\": \"%s\", \"variant\": \"%s\", \"scene\": \"%s\", \"n\": %d, "
           "\"bodies\": %d, \"steps\": %d, \"ms_per_step\": %.6f, \"build_ms\": %.3f, "
           "\"base_kb\": %ld, \"peak_kb\": %ld, \"top_displacement\": %s, \"moved\": %d, "
           "\"escaped\": %d}\n",
           engine->name, options.variant, scene_names[options.kind], options.size,
           desc.body_count, options.steps, (end - step_start) / options.steps,
           step_start - build_start, base_kb, run_peak_kb, top, s.moved, s.escaped);
    engine->destroy(world);
    free(xy);
    carom_scene_desc_free(&desc);
    return 0;
}
