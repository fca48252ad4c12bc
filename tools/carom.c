/* carom: run a scene file headless and write what happened.
 *
 *   carom run SCENE.json [--steps N | --time SECONDS] [--dt DT] [--substeps K]
 *                        [--out STATE.json] [--trace TRACE.csv [--every K]] [--hash] [--quiet]
 *
 * The contract (docs/cli.md) is what scripts rely on, so this file keeps to it strictly:
 * nothing but the requested output on stdout, problems on stderr, and the exit status says
 * which kind of failure it was: 2 for anything wrong with what the user gave (arguments, the
 * scene file), 1 for anything else (an output that cannot be written, the engine refusing).
 * Work happens in a fixed order so that a bad input never leaves a partial result behind:
 * arguments, then the whole scene, then the outputs are opened, and only then does it run. */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"
#include "state.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2 };

static const char usage_text[] =
    "usage: carom run SCENE.json [--steps N | --time SECONDS] [--dt DT] [--substeps K]\n"
    "                            [--out STATE.json] [--trace TRACE.csv [--every K]]\n"
    "                            [--hash] [--quiet]\n"
    "       carom --help | --version\n"
    "\n"
    "Runs the scene file headless (the format is in docs/cli.md).\n"
    "  --steps N        run N fixed steps (default 60)\n"
    "  --time SECONDS   run ceil(SECONDS / dt) steps\n"
    "  --dt DT          the fixed step in seconds, instead of the scene's world.dt\n"
    "  --substeps K     solver substeps per step (1 to 64), instead of world.substeps\n"
    "  --out FILE       write the final state as a scene file ('-': stdout)\n"
    "  --trace FILE     write CSV ('-': stdout): step,time,name,x,y,angle,vx,vy,w, a row\n"
    "                   per dynamic body per step from step 0 (the initial state)\n"
    "  --every K        record every K-th step in the trace (default 1)\n"
    "  --hash           print \"hash: \" and 16 hex digits identifying the final state\n"
    "  --quiet          no progress line on a terminal\n"
    "Exit status: 0 success, 2 bad input or arguments, 1 anything else.\n";

typedef struct run_options {
    const char* scene_path;
    int steps;
    bool steps_given;
    double time;
    bool time_given;
    double dt;
    bool dt_given;
    int substeps;
    bool substeps_given;
    const char* out_path;
    const char* trace_path;
    int every;
    bool every_given;
    bool hash;
    bool quiet;
} run_options;

/* ---- Arguments -------------------------------------------------------------------------- */

typedef struct arguments {
    int argc;
    char** argv;
    int next;        /* index of the next argument to read */
    int error_count; /* every problem is reported, then the run refused */
} arguments;

static void argument_error(arguments* args, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
static void argument_error(arguments* args, const char* format, ...) {
    va_list list;
    va_start(list, format);
    fputs("carom: ", stderr);
    vfprintf(stderr, format, list);
    fputc('\n', stderr);
    va_end(list);
    args->error_count += 1;
}

/* A whole decimal integer in [minimum, maximum]: no sign games, no trailing text. */
static bool parse_integer(const char* text, long long minimum, long long maximum, int* out) {
    if (text[0] < '0' || text[0] > '9') {
        return false;
    }
    errno = 0;
    char* end = NULL;
    long long value = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < minimum || value > maximum) {
        return false;
    }
    *out = (int)value;
    return true;
}

/* A finite decimal number with nothing after it. */
static bool parse_real(const char* text, double* out) {
    if (text[0] == '\0' || text[0] == ' ') {
        return false;
    }
    char* end = NULL;
    double value = strtod(text, &end);
    if (*end != '\0' || !isfinite(value)) {
        return false;
    }
    *out = value;
    return true;
}

/* The value of an option: after '=' in "--steps=5", or the next argument. NULL when missing. */
static const char* option_value(arguments* args, const char* name, const char* inline_value) {
    if (inline_value != NULL) {
        return inline_value;
    }
    if (args->next < args->argc) {
        return args->argv[args->next++];
    }
    argument_error(args, "%s needs a value", name);
    return NULL;
}

static void parse_count_option(arguments* args, const char* name, const char* value,
                               long long minimum, long long maximum, int* out, bool* given) {
    if (value == NULL) {
        return;
    }
    if (*given) {
        argument_error(args, "%s is given twice", name);
    }
    *given = true;
    if (!parse_integer(value, minimum, maximum, out)) {
        argument_error(args, "%s must be an integer from %lld to %lld, got '%s'", name, minimum,
                       maximum, value);
    }
}

static void parse_seconds_option(arguments* args, const char* name, const char* value,
                                 bool zero_allowed, double* out, bool* given) {
    if (value == NULL) {
        return;
    }
    if (*given) {
        argument_error(args, "%s is given twice", name);
    }
    *given = true;
    double seconds = 0.0;
    bool ok = parse_real(value, &seconds) && seconds <= CAROM_MAX_MAGNITUDE &&
              (zero_allowed ? seconds >= 0.0 : seconds > 0.0);
    if (!ok) {
        argument_error(args, "%s must be a number of seconds %s 0 and at most 1e12, got '%s'", name,
                       zero_allowed ? ">=" : ">", value);
    }
    *out = seconds;
}

static void parse_path_option(arguments* args, const char* name, const char* value,
                              const char** out) {
    if (value == NULL) {
        return;
    }
    if (*out != NULL) {
        argument_error(args, "%s is given twice", name);
    }
    if (value[0] == '\0') {
        argument_error(args, "%s needs a file name, got an empty one", name);
    }
    *out = value;
}

/* One "--name[=value]" option. */
static void parse_option(arguments* args, const char* argument, run_options* options) {
    char name[32];
    const char* equals = strchr(argument, '=');
    size_t length = equals != NULL ? (size_t)(equals - argument) : strlen(argument);
    snprintf(name, sizeof(name), "%.*s", (int)(length < 31 ? length : 31), argument);
    const char* inline_value = equals != NULL ? equals + 1 : NULL;
    if (strcmp(name, "--hash") == 0 || strcmp(name, "--quiet") == 0) {
        if (inline_value != NULL) {
            argument_error(args, "%s takes no value", name);
        }
        *(strcmp(name, "--hash") == 0 ? &options->hash : &options->quiet) = true;
    } else if (strcmp(name, "--steps") == 0) {
        parse_count_option(args, name, option_value(args, name, inline_value), 0, INT_MAX,
                           &options->steps, &options->steps_given);
    } else if (strcmp(name, "--every") == 0) {
        parse_count_option(args, name, option_value(args, name, inline_value), 1, INT_MAX,
                           &options->every, &options->every_given);
    } else if (strcmp(name, "--substeps") == 0) {
        parse_count_option(args, name, option_value(args, name, inline_value), 1, 64,
                           &options->substeps, &options->substeps_given);
    } else if (strcmp(name, "--time") == 0) {
        parse_seconds_option(args, name, option_value(args, name, inline_value), true,
                             &options->time, &options->time_given);
    } else if (strcmp(name, "--dt") == 0) {
        parse_seconds_option(args, name, option_value(args, name, inline_value), false,
                             &options->dt, &options->dt_given);
    } else if (strcmp(name, "--out") == 0) {
        parse_path_option(args, name, option_value(args, name, inline_value), &options->out_path);
    } else if (strcmp(name, "--trace") == 0) {
        parse_path_option(args, name, option_value(args, name, inline_value), &options->trace_path);
    } else {
        argument_error(args, "unknown option '%s'", argument);
    }
}

/* The arguments after "run". Returns false (having said why) when they are unusable. */
static bool parse_run_arguments(int argc, char** argv, run_options* options) {
    arguments args = {argc, argv, 0, 0};
    memset(options, 0, sizeof(*options));
    options->steps = 60;
    options->every = 1;
    bool only_paths = false;
    while (args.next < argc) {
        const char* argument = argv[args.next++];
        if (!only_paths && strcmp(argument, "--") == 0) {
            only_paths = true;
        } else if (!only_paths && argument[0] == '-' && argument[1] != '\0') {
            parse_option(&args, argument, options);
        } else if (options->scene_path != NULL) {
            argument_error(&args, "one scene file at a time: '%s' and '%s'", options->scene_path,
                           argument);
        } else {
            options->scene_path = argument;
        }
    }
    if (options->scene_path == NULL) {
        argument_error(&args, "run needs a scene file: carom run SCENE.json");
    }
    if (options->steps_given && options->time_given) {
        argument_error(&args, "--steps and --time both say how long to run: give one");
    }
    if (options->out_path != NULL && options->trace_path != NULL &&
        strcmp(options->out_path, "-") == 0 && strcmp(options->trace_path, "-") == 0) {
        argument_error(&args, "--out and --trace cannot both write to stdout ('-')");
    }
    if (options->every_given && options->trace_path == NULL) {
        argument_error(&args, "--every only applies to a trace: add --trace FILE");
    }
    if (args.error_count > 0) {
        fputs("carom: see 'carom --help'\n", stderr);
    }
    return args.error_count == 0;
}

/* ---- Progress --------------------------------------------------------------------------- */

/* A progress line on stderr, only for a person watching: stderr is a terminal, the run has
 * already taken a second (short runs stay silent), and --quiet was not given. */
typedef struct progress {
    bool enabled;
    bool shown;
    double start;
    double last;
} progress;

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void progress_init(progress* p, bool quiet) {
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->shown = false;
    p->start = p->enabled ? now_seconds() : 0.0;
    p->last = p->start;
}

static void progress_update(progress* p, int step, int total) {
    if (!p->enabled) {
        return;
    }
    double now = now_seconds();
    if (now - p->start < 1.0 || now - p->last < 0.25) {
        return;
    }
    double left = (now - p->start) * (double)(total - step) / (double)step;
    fprintf(stderr, "\rcarom: step %d of %d (%d%%), about %.0f s left\033[K", step, total,
            (int)(100.0 * step / total), ceil(left));
    p->shown = true;
    p->last = now;
}

static void progress_end(progress* p) {
    if (p->shown) {
        fputs("\r\033[K", stderr); /* erase the line: it was only ever a running commentary */
    }
}

/* ---- Running ---------------------------------------------------------------------------- */

static void print_report_line(void* user, const char* line) {
    (void)user;
    fputs(line, stderr);
    fputc('\n', stderr);
}

/* Steps for --time: ceil(T / dt), taken as the fewest steps N whose time N * dt (the trace's
 * time column, in doubles) reaches T, so that 0.1 / 0.01 = 10.000000000000002 runs 10 steps.
 * False when that is more steps than an int holds. */
static bool steps_for_time(double time, double dt, int* out) {
    double estimate = ceil(time / dt);
    if (!(estimate <= (double)INT_MAX)) {
        return false;
    }
    int steps = (int)estimate;
    while (steps > 0 && (double)(steps - 1) * dt >= time) {
        --steps;
    }
    while ((double)steps * dt < time && steps < INT_MAX) {
        ++steps;
    }
    *out = steps;
    return true;
}

typedef struct outputs {
    FILE* out;
    FILE* trace;
} outputs;

/* "-" is stdout, written through the descriptor already open: reopening /dev/stdout would
 * truncate a file the shell redirected stdout to, and lose what came before. */
static FILE* open_output(const char* path) {
    if (strcmp(path, "-") == 0) {
        return stdout;
    }
    FILE* file = fopen(path, "w");
    if (file == NULL) {
        fprintf(stderr, "carom: cannot write '%s': %s\n", path, strerror(errno));
    }
    return file;
}

/* Close an output (flush stdout) and say so if anything written to it was lost. */
static bool close_output(FILE* file, const char* path) {
    if (file == NULL) {
        return true;
    }
    bool ok = fflush(file) == 0 && ferror(file) == 0;
    if (file != stdout) {
        ok = fclose(file) == 0 && ok;
    }
    if (!ok) {
        fprintf(stderr, "carom: could not write all of '%s': %s\n", path, strerror(errno));
    }
    return ok;
}

/* Step the world `steps` times, tracing as asked. False (having said why) if a step fails. */
static bool run_steps(const run_options* options, const scene_def* scene, carom_world_id world,
                      const carom_body_id* body_ids, int steps, double dt, FILE* trace) {
    progress bar;
    progress_init(&bar, options->quiet);
    if (trace != NULL) {
        trace_write_header(trace);
        trace_write_step(trace, scene, body_ids, 0, 0.0);
    }
    for (int step = 1; step <= steps; ++step) {
        if (carom_world_step(world, dt) != CAROM_OK) {
            progress_end(&bar);
            fprintf(stderr, "carom: step %d failed: %s\n", step, carom_last_error());
            return false;
        }
        if (trace != NULL && step % options->every == 0) {
            trace_write_step(trace, scene, body_ids, step, (double)step * dt);
        }
        progress_update(&bar, step, steps);
    }
    progress_end(&bar);
    return true;
}

/* Build the world, run it, write the outputs. The scene is valid here. */
static int run_scene(const run_options* options, const scene_def* scene, int steps, double dt) {
    outputs files = {NULL, NULL};
    if ((options->out_path != NULL && (files.out = open_output(options->out_path)) == NULL) ||
        (options->trace_path != NULL && (files.trace = open_output(options->trace_path)) == NULL)) {
        close_output(files.out, options->out_path);
        return EXIT_RUN_FAILED;
    }
    carom_body_id* body_ids = calloc((size_t)scene->body_count + 1, sizeof(carom_body_id));
    carom_world_id world = carom_null_world_id;
    int failed_body = -1;
    bool ok = body_ids != NULL;
    if (ok && scene_build_world(scene, &world, body_ids, &failed_body) != CAROM_OK) {
        /* The loader checks what the engine checks; reaching this is a bug in carom. */
        fprintf(stderr, "carom: %s: the engine refused %s%d%s: %s\n", options->scene_path,
                failed_body >= 0 ? "bodies[" : "the world", failed_body >= 0 ? failed_body : 0,
                failed_body >= 0 ? "]" : "", carom_last_error());
        ok = false;
    }
    ok = ok && run_steps(options, scene, world, body_ids, steps, dt, files.trace);
    if (ok && files.out != NULL) {
        state_write(files.out, scene, world, body_ids, dt);
    }
    if (ok && options->hash) {
        printf("hash: %016" PRIx64 "\n", state_hash(body_ids, scene->body_count));
        ok = close_output(stdout, "stdout"); /* flushes only: a full disk must not pass */
    }
    ok = close_output(files.trace, options->trace_path) && ok;
    ok = close_output(files.out, options->out_path) && ok;
    if (!CAROM_IS_NULL(world)) {
        carom_destroy_world(world);
    }
    free(body_ids);
    return ok ? 0 : EXIT_RUN_FAILED;
}

static int command_run(int argc, char** argv) {
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
    }
    run_options options;
    if (!parse_run_arguments(argc, argv, &options)) {
        return EXIT_BAD_INPUT;
    }
    scene_report report = {options.scene_path, print_report_line, NULL, 0, 0};
    scene_def scene;
    if (!scene_load_file(options.scene_path, &report, &scene)) {
        return EXIT_BAD_INPUT;
    }
    double dt = options.dt_given ? options.dt : scene.dt;
    if (options.substeps_given) {
        scene.substeps = options.substeps;
    }
    int steps = options.steps;
    if (options.time_given && !steps_for_time(options.time, dt, &steps)) {
        fprintf(stderr, "carom: --time %g at dt %g would be more than %d steps\n", options.time, dt,
                INT_MAX);
        scene_free(&scene);
        return EXIT_BAD_INPUT;
    }
    int status = run_scene(&options, &scene, steps, dt);
    scene_free(&scene);
    return status;
}

int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "run") == 0) {
        return command_run(argc - 2, argv + 2);
    }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "help") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("carom %s\n", carom_version_string());
        return 0;
    }
    if (argc >= 2) {
        fprintf(stderr, "carom: unknown command '%s'\n", argv[1]);
    }
    fputs(usage_text, stderr);
    return EXIT_BAD_INPUT;
}
