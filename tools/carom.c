/* carom: run a scene file headless and write what happened.
 *
 *   carom run SCENE.json [--steps N | --time SECONDS] [--dt DT] [--substeps K]
 *                        [--out STATE.json] [--trace TRACE.csv [--every K]] [--hash] [--quiet]
 *                        [--save SNAPSHOT] [--threads N]
 *   carom resume SNAPSHOT [--steps N | --time SECONDS] [--out STATE.json]
 *                         [--trace TRACE.csv [--every K]] [--hash] [--quiet] [--save SNAPSHOT]
 *                         [--threads N]
 *
 * resume continues a run saved with --save exactly, bit for bit: run 300 steps and resume 300
 * gives the hash of a run of 600. Both commands go through the same code once they know where
 * they start (a `start`: the scene, dt, the step number, and for resume the engine snapshot).
 *
 * The contract (docs/cli.md) is what scripts rely on, so this file keeps to it strictly:
 * nothing but the requested output on stdout, problems on stderr, and the exit status says
 * which kind of failure it was: 2 for anything wrong with what the user gave (arguments, the
 * scene file), 1 for anything else (an output that cannot be written, the engine refusing).
 * Work happens in a fixed order so that a bad input never leaves a partial result behind:
 * arguments, then the whole scene (or snapshot), then the world is built (and restored), then
 * the outputs are opened, and only then does it run. Output files are replaced whole or not at
 * all (atomic_file.h): written to temporaries, and renamed over the targets only when every
 * output was written in full, so a run that fails changes none of them. */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"
#include "scene.h"
#include "snapshot_file.h"
#include "state.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2 };

static const char usage_text[] =
    "usage: carom run SCENE.json [--steps N | --time SECONDS] [--dt DT] [--substeps K]\n"
    "                            [--out STATE.json] [--trace TRACE.csv [--every K]]\n"
    "                            [--hash] [--quiet] [--save SNAPSHOT] [--threads N]\n"
    "       carom resume SNAPSHOT [--steps N | --time SECONDS]\n"
    "                             [--out STATE.json] [--trace TRACE.csv [--every K]]\n"
    "                             [--hash] [--quiet] [--save SNAPSHOT] [--threads N]\n"
    "       carom --help | --version\n"
    "\n"
    "run runs the scene file headless (the format is in docs/cli.md); resume continues a run\n"
    "saved with --save, bit for bit, with the dt and substeps it was saved with.\n"
    "  --steps N        run N fixed steps (default 60)\n"
    "  --time SECONDS   run ceil(SECONDS / dt) steps\n"
    "  --dt DT          run only: the fixed step in seconds, instead of the scene's world.dt\n"
    "  --substeps K     run only: solver substeps per step (1 to 64), instead of\n"
    "                   world.substeps\n"
    "  --out FILE       write the final state as a scene file ('-': stdout)\n"
    "  --trace FILE     write CSV ('-': stdout): step,time,name,x,y,angle,vx,vy,w, a row\n"
    "                   per dynamic body per step from the first (step 0 for run, the\n"
    "                   saved step for resume)\n"
    "  --every K        record every K-th step in the trace (default 1)\n"
    "  --hash           print \"hash: \" and 16 hex digits identifying the final state\n"
    "  --quiet          no progress line on a terminal\n"
    "  --save FILE      write a snapshot after the run, for carom resume\n"
    "  --threads N      step on N threads (1 to 64, default 1); the results are the\n"
    "                   same bits whatever N\n"
    "Output files are replaced whole, only when the run succeeded: a failed run leaves\n"
    "earlier files as they were. Two outputs cannot name the same file.\n"
    "Exit status: 0 success, 2 bad input or arguments, 1 anything else.\n";

typedef enum command { COMMAND_RUN, COMMAND_RESUME } command;

typedef struct run_options {
    command command;
    const char* input_path; /* the scene file (run) or the snapshot file (resume) */
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
    const char* save_path;
    int threads;
    bool threads_given;
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
    } else if (strcmp(name, "--threads") == 0) {
        parse_count_option(args, name, option_value(args, name, inline_value), 1,
                           CAROM_MAX_WORKERS, &options->threads, &options->threads_given);
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
    } else if (strcmp(name, "--save") == 0) {
        parse_path_option(args, name, option_value(args, name, inline_value), &options->save_path);
    } else {
        argument_error(args, "unknown option '%s'", argument);
    }
}

/* What only one of the commands accepts. A snapshot holds the dt and substeps the run was
 * saved with, and resume continues that run: another dt or substeps would make it a different
 * run, which `carom run` on a state file (--out) already is. */
static void check_command_options(arguments* args, const run_options* options) {
    if (options->command == COMMAND_RUN) {
        if (options->input_path == NULL) {
            argument_error(args, "run needs a scene file: carom run SCENE.json");
        }
        return;
    }
    if (options->input_path == NULL) {
        argument_error(args, "resume needs a snapshot file: carom resume SNAPSHOT");
    }
    const char* refused[2] = {options->dt_given ? "--dt" : NULL,
                              options->substeps_given ? "--substeps" : NULL};
    for (int i = 0; i < 2; ++i) {
        if (refused[i] != NULL) {
            argument_error(args,
                           "resume continues with the dt and substeps of the snapshot: %s "
                           "cannot be given",
                           refused[i]);
        }
    }
}

/* --save writes binary that only resume reads, so it goes to a file, never to stdout. */
static void check_save_option(arguments* args, const run_options* options) {
    if (options->save_path != NULL && strcmp(options->save_path, "-") == 0) {
        argument_error(args, "--save writes a binary snapshot: give a file name, not '-'");
    }
}

/* Two outputs written to one file would leave only the one renamed last: refused, whatever the
 * spelling of the two paths (atomic_file_same_target). Stdout is checked by the caller. */
static void check_distinct_outputs(arguments* args, const run_options* options) {
    const struct {
        const char* name;
        const char* path;
    } outputs[] = {{"--out", options->out_path},
                   {"--trace", options->trace_path},
                   {"--save", options->save_path}};
    const int count = (int)(sizeof(outputs) / sizeof(outputs[0]));
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            if (outputs[i].path != NULL && outputs[j].path != NULL &&
                atomic_file_same_target(outputs[i].path, outputs[j].path)) {
                argument_error(args, "%s '%s' and %s '%s' are the same file: each output needs "
                                     "its own",
                               outputs[i].name, outputs[i].path, outputs[j].name,
                               outputs[j].path);
            }
        }
    }
}

/* The arguments after "run" or "resume". Returns false (having said why) when they are
 * unusable. */
static bool parse_run_arguments(command which, int argc, char** argv, run_options* options) {
    arguments args = {argc, argv, 0, 0};
    memset(options, 0, sizeof(*options));
    options->command = which;
    options->steps = 60;
    options->every = 1;
    bool only_paths = false;
    const char* kind = which == COMMAND_RUN ? "scene" : "snapshot";
    while (args.next < argc) {
        const char* argument = argv[args.next++];
        if (!only_paths && strcmp(argument, "--") == 0) {
            only_paths = true;
        } else if (!only_paths && argument[0] == '-' && argument[1] != '\0') {
            parse_option(&args, argument, options);
        } else if (options->input_path != NULL) {
            argument_error(&args, "one %s file at a time: '%s' and '%s'", kind, options->input_path,
                           argument);
        } else {
            options->input_path = argument;
        }
    }
    check_command_options(&args, options);
    check_save_option(&args, options);
    if (options->steps_given && options->time_given) {
        argument_error(&args, "--steps and --time both say how long to run: give one");
    }
    if (options->out_path != NULL && options->trace_path != NULL &&
        strcmp(options->out_path, "-") == 0 && strcmp(options->trace_path, "-") == 0) {
        argument_error(&args, "--out and --trace cannot both write to stdout ('-')");
    }
    check_distinct_outputs(&args, options);
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

/* Where a run starts. For run: the scene file's state, step 0. For resume: the scene saved in
 * the snapshot, built the same way, with the engine snapshot to restore into it and the step
 * number it had reached. From here on both commands are one code path. */
typedef struct start {
    scene_def scene;        /* its bodies, in order, are the rows of every output */
    const char* scene_text; /* the scene file's bytes as read, kept for --save */
    size_t scene_text_size;
    double dt;                   /* s */
    int64_t first_step;          /* the step number of the starting state */
    const unsigned char* engine; /* resume: the engine snapshot to restore; NULL for run */
    size_t engine_size;
    char* owned; /* the bytes scene_text and engine point into */
} start;

/* A trace row written for the step: false (having said why) when the trace could not take it,
 * so that a full disk stops a long run at once instead of at its end. */
static bool trace_step(atomic_file* trace, const start* from, const carom_body_id* body_ids,
                       int64_t step) {
    trace_write_step(trace->file, &from->scene, body_ids, step, (double)step * from->dt);
    if (atomic_file_failed(trace)) {
        atomic_file_report(trace, "carom");
        return false;
    }
    return true;
}

/* Step the world `steps` times, tracing as asked (trace NULL: no trace): the starting state
 * first, then every step whose number is a multiple of --every, numbered on from the starting
 * step. False (having said why) if a step fails or the trace cannot be written. */
static bool run_steps(const run_options* options, const start* from, carom_world_id world,
                      const carom_body_id* body_ids, int steps, atomic_file* trace) {
    progress bar;
    progress_init(&bar, options->quiet);
    if (trace != NULL) {
        trace_write_header(trace->file);
        if (!trace_step(trace, from, body_ids, from->first_step)) {
            return false;
        }
    }
    bool ok = true;
    for (int done = 1; ok && done <= steps; ++done) {
        int64_t step = from->first_step + done;
        if (carom_world_step(world, from->dt) != CAROM_OK) {
            progress_end(&bar);
            fprintf(stderr, "carom: step %" PRId64 " failed: %s\n", step, carom_last_error());
            return false;
        }
        if (trace != NULL && step % options->every == 0) {
            ok = trace_step(trace, from, body_ids, step);
        }
        progress_update(&bar, done, steps);
    }
    progress_end(&bar);
    return ok;
}

/* The output files of a run, in the order they are opened and put in place. */
enum { OUTPUT_OUT, OUTPUT_TRACE, OUTPUT_SAVE, OUTPUT_COUNT };

typedef struct outputs {
    atomic_file files[OUTPUT_COUNT];
    bool asked[OUTPUT_COUNT];
} outputs;

/* Give up every output: their targets stay as they were (a trace sent to stdout stays sent). */
static void discard_outputs(outputs* o) {
    for (int i = 0; i < OUTPUT_COUNT; ++i) {
        if (o->asked[i]) {
            atomic_file_discard(&o->files[i]);
        }
    }
}

/* Open every output asked for, or none: false (having said why, and given up the others) when
 * one cannot be opened. A folder that cannot be written, or a directory where the file should
 * go, is found here, before the run rather than after it. */
static bool open_outputs(const run_options* options, outputs* o) {
    memset(o, 0, sizeof(*o));
    const char* paths[OUTPUT_COUNT] = {options->out_path, options->trace_path,
                                       options->save_path};
    for (int i = 0; i < OUTPUT_COUNT; ++i) {
        if (paths[i] == NULL) {
            continue;
        }
        if (!atomic_file_open(&o->files[i], paths[i])) {
            atomic_file_report(&o->files[i], "carom");
            discard_outputs(o);
            return false;
        }
        o->asked[i] = true;
    }
    return true;
}

/* Every output written in full and synced first, then all put in place: a failure in one
 * (having said why) leaves every target as it was. */
static bool finish_outputs(outputs* o) {
    bool ok = true;
    for (int i = 0; i < OUTPUT_COUNT; ++i) {
        if (o->asked[i] && !atomic_file_close(&o->files[i])) {
            atomic_file_report(&o->files[i], "carom");
            ok = false;
        }
    }
    for (int i = 0; ok && i < OUTPUT_COUNT; ++i) {
        if (o->asked[i] && !atomic_file_replace(&o->files[i])) {
            atomic_file_report(&o->files[i], "carom");
            ok = false; /* those already renamed stay: their rename cannot be undone */
        }
    }
    discard_outputs(o); /* nothing left to close; frees what is left, removes temporaries */
    return ok;
}

/* --save: the engine's snapshot of the world, in a container with what the command line needs
 * besides (snapshot_file.h). False, having said why, when the engine cannot save it or the file
 * cannot take it. */
static bool save_snapshot(atomic_file* file, const start* from, carom_world_id world,
                          int steps) {
    size_t size = 0;
    unsigned char* engine = NULL;
    bool ok = carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size) == CAROM_OK;
    if (ok && (engine = malloc(size > 0 ? size : 1)) == NULL) {
        fputs("carom: out of memory\n", stderr);
        return false;
    }
    if (!ok || carom_world_save(world, CAROM_SNAPSHOT_FULL, engine, size, &size) != CAROM_OK) {
        fprintf(stderr, "carom: the engine could not save the world: %s\n", carom_last_error());
        free(engine);
        return false;
    }
    snapshot_file snapshot = {from->dt,
                              (uint64_t)(from->first_step + steps),
                              from->scene.substeps,
                              from->scene_text,
                              from->scene_text_size,
                              engine,
                              size,
                              from->scene.body_count};
    ok = snapshot_file_size(&snapshot) <= SNAPSHOT_FILE_MAX_BYTES;
    if (!ok) {
        fprintf(stderr,
                "carom: the snapshot would be %" PRIu64 " bytes, more than the %u resume "
                "reads\n",
                snapshot_file_size(&snapshot), SNAPSHOT_FILE_MAX_BYTES);
    } else {
        snapshot_file_write(file->file, &snapshot);
        if (atomic_file_failed(file)) {
            atomic_file_report(file, "carom");
            ok = false;
        }
    }
    free(engine);
    return ok;
}

/* The state file (--out), written to its temporary. False, having said why, when it cannot
 * take it. */
static bool write_state_file(atomic_file* file, const start* from, carom_world_id world,
                             const carom_body_id* body_ids) {
    state_write(file->file, &from->scene, world, body_ids, from->dt);
    if (atomic_file_failed(file)) {
        atomic_file_report(file, "carom");
        return false;
    }
    return true;
}

/* --hash on stdout, flushed: a full disk behind stdout must not pass. */
static bool print_hash(carom_world_id world) {
    errno = 0;
    printf("hash: %016" PRIx64 "\n", carom_world_hash(world));
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "carom: could not write the hash to stdout: %s\n",
                strerror(errno != 0 ? errno : EIO));
        return false;
    }
    return true;
}

/* Open the outputs, run the built world, write what was asked. The hash comes last, once the
 * output files are in place, so that it is never printed for outputs that failed. */
static int run_world(const run_options* options, const start* from, carom_world_id world,
                     const carom_body_id* body_ids, int steps) {
    outputs o;
    if (!open_outputs(options, &o)) {
        return EXIT_RUN_FAILED;
    }
    atomic_file* trace = o.asked[OUTPUT_TRACE] ? &o.files[OUTPUT_TRACE] : NULL;
    bool ok = run_steps(options, from, world, body_ids, steps, trace);
    if (ok && o.asked[OUTPUT_OUT]) {
        ok = write_state_file(&o.files[OUTPUT_OUT], from, world, body_ids);
    }
    if (ok && o.asked[OUTPUT_SAVE]) {
        ok = save_snapshot(&o.files[OUTPUT_SAVE], from, world, steps);
    }
    if (ok) {
        ok = finish_outputs(&o);
    } else {
        discard_outputs(&o);
    }
    if (ok && options->hash) {
        ok = print_hash(world);
    }
    return ok ? 0 : EXIT_RUN_FAILED;
}

/* Refusals of a snapshot's bytes are bad input; anything else (out of memory) is not. */
static bool is_snapshot_refusal(carom_status status) {
    return status == CAROM_ERROR_INVALID_SNAPSHOT || status == CAROM_ERROR_SNAPSHOT_VERSION ||
           status == CAROM_ERROR_SCENE_MISMATCH;
}

/* Build the world the scene describes and, for resume, restore the saved state into it. Both
 * commands build with the same calls in the same order, so the bodies get the same ids, and
 * the restored world is the saved one with the scene's bodies where run had them. Returns 0 or
 * an exit status, having said why; the world is null unless 0. */
static int build_world(const run_options* options, const start* from, carom_world_id* world,
                       carom_body_id* body_ids) {
    int failed_body = -1;
    if (scene_build_world(&from->scene, world, body_ids, &failed_body) != CAROM_OK) {
        /* The loader checks what the engine checks; reaching this is a bug in carom. */
        fprintf(stderr, "carom: %s: the engine refused %s%d%s: %s\n", options->input_path,
                failed_body >= 0 ? "bodies[" : "the world", failed_body >= 0 ? failed_body : 0,
                failed_body >= 0 ? "]" : "", carom_last_error());
        return EXIT_RUN_FAILED;
    }
    if (from->engine != NULL &&
        carom_world_restore(*world, from->engine, from->engine_size) != CAROM_OK) {
        carom_status status = carom_last_status();
        fprintf(stderr, "%s: the engine refused the snapshot: %s\n", options->input_path,
                carom_last_error());
        carom_destroy_world(*world);
        *world = carom_null_world_id;
        return is_snapshot_refusal(status) ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
    }
    return 0;
}

/* Build the world, run it, write the outputs. The start is valid here. */
static int run_from(const run_options* options, const start* from, int steps) {
    carom_body_id* body_ids = calloc((size_t)from->scene.body_count + 1, sizeof(carom_body_id));
    if (body_ids == NULL) {
        fputs("carom: out of memory\n", stderr);
        return EXIT_RUN_FAILED;
    }
    carom_world_id world = carom_null_world_id;
    int status = build_world(options, from, &world, body_ids);
    if (status == 0) {
        status = run_world(options, from, world, body_ids, steps);
        carom_destroy_world(world);
    }
    free(body_ids);
    return status;
}

/* run: the scene file, with --dt and --substeps applied. Its bytes are kept for --save, which
 * stores them as they were read. Returns 0 or an exit status, having said why. */
static int load_scene_start(const run_options* options, start* from) {
    scene_report report = {options->input_path, print_report_line, NULL, 0, 0};
    size_t size = 0;
    from->owned =
        scene_read_file(options->input_path, SCENE_MAX_FILE_BYTES, "scene file", &report, &size);
    if (from->owned == NULL || !scene_load_buffer(from->owned, size, &report, &from->scene)) {
        return EXIT_BAD_INPUT;
    }
    if (options->save_path != NULL) {
        from->scene_text = from->owned;
        from->scene_text_size = size;
    } else { /* up to 64 MiB that nothing needs any more */
        free(from->owned);
        from->owned = NULL;
    }
    from->dt = options->dt_given ? options->dt : from->scene.dt;
    if (options->substeps_given) {
        from->scene.substeps = options->substeps;
    }
    from->scene.worker_count = options->threads_given ? options->threads : 1;
    return 0;
}

/* The scene text saved in a snapshot, loaded as run loaded it. Its warnings were shown when it
 * was run, so they are shown again only beside an error (which a snapshot written by carom never
 * has). */
static bool load_saved_scene(const char* path, const snapshot_file* snapshot, scene_def* scene) {
    static const char suffix[] = " (saved scene)";
    char* name = malloc(strlen(path) + sizeof(suffix));
    if (name == NULL) {
        fputs("carom: out of memory\n", stderr);
        return false;
    }
    strcpy(name, path);
    strcat(name, suffix);
    scene_report quiet = {name, NULL, NULL, 0, 0};
    bool ok = scene_load_buffer(snapshot->scene, snapshot->scene_size, &quiet, scene);
    if (!ok) {
        scene_report report = {name, print_report_line, NULL, 0, 0};
        scene_load_buffer(snapshot->scene, snapshot->scene_size, &report, scene);
    }
    free(name);
    return ok;
}

/* resume: the snapshot file, checked in full, and the scene saved in it, built as run built it
 * (with the substeps it had). Returns 0 or an exit status, having said why. */
static int load_snapshot_start(const run_options* options, start* from) {
    scene_report report = {options->input_path, print_report_line, NULL, 0, 0};
    size_t size = 0;
    from->owned = scene_read_file(options->input_path, SNAPSHOT_FILE_MAX_BYTES, "snapshot file",
                                  &report, &size);
    if (from->owned == NULL) {
        return EXIT_BAD_INPUT;
    }
    snapshot_file snapshot;
    char reason[1024];
    if (!snapshot_file_parse((const unsigned char*)from->owned, size, &snapshot, reason,
                             sizeof(reason))) {
        fprintf(stderr, "%s: %s\n", options->input_path, reason);
        return EXIT_BAD_INPUT;
    }
    if (!load_saved_scene(options->input_path, &snapshot, &from->scene)) {
        return EXIT_BAD_INPUT;
    }
    if (from->scene.body_count != snapshot.body_count) {
        fprintf(stderr, "%s: corrupt snapshot: its scene has %d bodies, its engine snapshot %d\n",
                options->input_path, from->scene.body_count, snapshot.body_count);
        return EXIT_BAD_INPUT;
    }
    from->scene.substeps = snapshot.substeps;
    from->scene.worker_count = options->threads_given ? options->threads : 1;
    from->scene_text = snapshot.scene;
    from->scene_text_size = snapshot.scene_size;
    from->dt = snapshot.dt;
    from->first_step = (int64_t)snapshot.step;
    from->engine = snapshot.engine;
    from->engine_size = snapshot.engine_size;
    return 0;
}

/* How many steps: --steps, or --time at the start's dt. Returns 0 or an exit status. */
static int steps_to_run(const run_options* options, const start* from, int* steps) {
    *steps = options->steps;
    if (options->time_given && !steps_for_time(options->time, from->dt, steps)) {
        fprintf(stderr, "carom: --time %g at dt %g would be more than %d steps\n", options->time,
                from->dt, INT_MAX);
        return EXIT_BAD_INPUT;
    }
    /* Only a snapshot file made by hand can start this late; run starts at 0. */
    if ((uint64_t)from->first_step + (uint64_t)*steps > SNAPSHOT_FILE_MAX_STEP) {
        fprintf(stderr, "carom: %d steps from step %" PRId64 " would pass step 2^53 - 1\n", *steps,
                from->first_step);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

static int command_run(command which, int argc, char** argv) {
    atomic_file_clean_up_on_signals(); /* Ctrl-C in a long run leaves no temporary behind */
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
    }
    run_options options;
    if (!parse_run_arguments(which, argc, argv, &options)) {
        return EXIT_BAD_INPUT;
    }
    start from;
    memset(&from, 0, sizeof(from));
    int steps = 0;
    int status = which == COMMAND_RUN ? load_scene_start(&options, &from)
                                      : load_snapshot_start(&options, &from);
    if (status == 0) {
        status = steps_to_run(&options, &from, &steps);
    }
    if (status == 0) {
        status = run_from(&options, &from, steps);
    }
    scene_free(&from.scene);
    free(from.owned);
    return status;
}

int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "run") == 0) {
        return command_run(COMMAND_RUN, argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "resume") == 0) {
        return command_run(COMMAND_RESUME, argc - 2, argv + 2);
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
