/* carom: run a scene file headless and write what happened.
 *
 *   carom run SCENE.json [--steps N | --time SECONDS] [--dt DT] [--substeps K]
 *                        [--out STATE.json] [--trace TRACE.csv [--every K]] [--hash] [--quiet]
 *                        [--save SNAPSHOT] [--events EVENTS.jsonl] [--threads N]
 *   carom resume SNAPSHOT [--steps N | --time SECONDS] [--out STATE.json]
 *                         [--trace TRACE.csv [--every K]] [--hash] [--quiet] [--save SNAPSHOT]
 *                         [--events EVENTS.jsonl] [--threads N]
 *   carom render INPUT (--png FILE | --gif FILE | --frames FOLDER) [...] (render_command.c)
 *
 * resume continues a run saved with --save exactly, bit for bit: run 300 steps and resume 300
 * gives the hash of a run of 600. Both commands go through the same code once they know where
 * they start (a `start`, run_start.h: the scene, dt, the step number, and for resume the engine
 * snapshot).
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
#include "arguments.h"
#include "atomic_file.h"
#include "progress.h"
#include "render_command.h"
#include "run_start.h"
#include "scene.h"
#include "snapshot_file.h"
#include "state.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: carom run SCENE.json [--steps N | --time SECONDS] [--dt DT] [--substeps K]\n"
    "                            [--out STATE.json] [--trace TRACE.csv [--every K]]\n"
    "                            [--hash] [--quiet] [--save SNAPSHOT] [--events FILE]\n"
    "                            [--threads N]\n"
    "       carom resume SNAPSHOT [--steps N | --time SECONDS]\n"
    "                             [--out STATE.json] [--trace TRACE.csv [--every K]]\n"
    "                             [--hash] [--quiet] [--save SNAPSHOT] [--events FILE]\n"
    "                             [--threads N]\n"
    "       carom render INPUT (--png FILE | --gif FILE | --frames FOLDER) [...]\n"
    "       carom --help | --version\n"
    "\n"
    "run runs the scene file headless (the format is in docs/cli.md); resume continues a run\n"
    "saved with --save, bit for bit, with the dt and substeps it was saved with; render\n"
    "draws a scene, state or snapshot file, or its run (carom render --help).\n"
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
    "  --events FILE    write the run's contact (begin, end, hit) and sensor (sensor_begin,\n"
    "                   sensor_end) events as JSON lines ('-': stdout)\n"
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
    const char* events_path;
    int threads;
    bool threads_given;
} run_options;

/* ---- Arguments -------------------------------------------------------------------------- */

/* Every option of run and resume, for the hint after a mistyped one (parse_option reads them). */
static const char* const known_options[] = {"--steps", "--time",  "--dt",     "--substeps",
                                            "--out",   "--trace", "--every",  "--hash",
                                            "--quiet", "--save",  "--events", "--threads"};

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
        parse_count_option(args, name, option_value(args, name, inline_value), 1, CAROM_MAX_WORKERS,
                           &options->threads, &options->threads_given);
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
    } else if (strcmp(name, "--events") == 0) {
        parse_path_option(args, name, option_value(args, name, inline_value),
                          &options->events_path);
    } else {
        refuse_unknown_option(args, argument, name, known_options,
                              (int)(sizeof(known_options) / sizeof(known_options[0])));
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
                   {"--save", options->save_path},
                   {"--events", options->events_path}};
    const int count = (int)(sizeof(outputs) / sizeof(outputs[0]));
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            if (outputs[i].path != NULL && outputs[j].path != NULL &&
                atomic_file_same_target(outputs[i].path, outputs[j].path)) {
                argument_error(args,
                               "%s '%s' and %s '%s' are the same file: each output needs "
                               "its own",
                               outputs[i].name, outputs[i].path, outputs[j].name, outputs[j].path);
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
    bool out_stdout = options->out_path != NULL && strcmp(options->out_path, "-") == 0;
    bool trace_stdout = options->trace_path != NULL && strcmp(options->trace_path, "-") == 0;
    bool events_stdout = options->events_path != NULL && strcmp(options->events_path, "-") == 0;
    if (out_stdout && trace_stdout) {
        argument_error(&args, "--out and --trace cannot both write to stdout ('-')");
    }
    if (events_stdout && (out_stdout || trace_stdout)) {
        argument_error(&args, "--events and %s cannot both write to stdout ('-')",
                       out_stdout ? "--out" : "--trace");
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

/* ---- Running ---------------------------------------------------------------------------- */

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

/* ---- Events (--events) ------------------------------------------------------------------ */

/* Bodies and shapes are numbered as the engine numbers them, which for a world built from a
 * scene file is the file's order: bodies from 0, shapes from 0 in the order the file creates
 * them (a chain one per segment, a decomposed polygon one per convex piece). */
static void write_event_head(FILE* out, int64_t step, const char* kind, carom_shape_id a,
                             carom_shape_id b) {
    carom_body_id body_a = carom_shape_get_body(a);
    carom_body_id body_b = carom_shape_get_body(b);
    fprintf(out,
            "{\"step\": %" PRId64 ", \"kind\": \"%s\", \"bodies\": [%d, %d], \"shapes\": [%d, %d]",
            step, kind, (int)body_a.index1 - 1, (int)body_b.index1 - 1, (int)a.index1 - 1,
            (int)b.index1 - 1);
}

/* The point, normal and speed of a begin or hit event, exact (17 digits), and the line's end. */
static void write_event_contact(FILE* out, carom_vec2 point, carom_vec2 normal, double speed) {
    fprintf(out, ", \"point\": [%.17g, %.17g], \"normal\": [%.17g, %.17g], \"speed\": %.17g}\n",
            point.x, point.y, normal.x, normal.y, speed);
}

/* One JSON line per event of the step just taken: contact begins (with the first manifold point,
 * the normal from A to B and the approach speed), ends, hits, then sensor begins and ends
 * (shapes: the sensor, then the visitor). */
static void write_step_events(FILE* out, carom_world_id world, int64_t step) {
    carom_contact_events contacts = carom_world_get_contact_events(world);
    for (int i = 0; i < contacts.begin_count; ++i) {
        const carom_contact_begin_event* e = &contacts.begin_events[i];
        write_event_head(out, step, "begin", e->shape_a, e->shape_b);
        carom_vec2 point =
            e->manifold.point_count > 0 ? e->manifold.points[0].point : carom_v2(0.0, 0.0);
        write_event_contact(out, point, e->manifold.normal, e->approach_speed);
    }
    for (int i = 0; i < contacts.end_count; ++i) {
        write_event_head(out, step, "end", contacts.end_events[i].shape_a,
                         contacts.end_events[i].shape_b);
        fputs("}\n", out);
    }
    for (int i = 0; i < contacts.hit_count; ++i) {
        const carom_contact_hit_event* e = &contacts.hit_events[i];
        write_event_head(out, step, "hit", e->shape_a, e->shape_b);
        write_event_contact(out, e->point, e->normal, e->approach_speed);
    }
    carom_sensor_events sensors = carom_world_get_sensor_events(world);
    for (int i = 0; i < sensors.begin_count; ++i) {
        write_event_head(out, step, "sensor_begin", sensors.begin_events[i].sensor,
                         sensors.begin_events[i].visitor);
        fputs("}\n", out);
    }
    for (int i = 0; i < sensors.end_count; ++i) {
        write_event_head(out, step, "sensor_end", sensors.end_events[i].sensor,
                         sensors.end_events[i].visitor);
        fputs("}\n", out);
    }
}

/* Step the world `steps` times, tracing as asked (trace NULL: no trace): the starting state
 * first, then every step whose number is a multiple of --every, numbered on from the starting
 * step. False (having said why) if a step fails or the trace cannot be written. */
static bool run_steps(const run_options* options, const start* from, carom_world_id world,
                      const carom_body_id* body_ids, int steps, atomic_file* trace,
                      atomic_file* events) {
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
        if (scene_apply_controls(&from->scene, step - 1) != CAROM_OK ||
            carom_world_step(world, from->dt) != CAROM_OK) {
            progress_end(&bar);
            fprintf(stderr, "carom: step %" PRId64 " failed: %s\n", step, carom_last_error());
            return false;
        }
        if (trace != NULL && step % options->every == 0) {
            ok = trace_step(trace, from, body_ids, step);
        }
        if (ok && events != NULL) {
            write_step_events(events->file, world, step);
            if (atomic_file_failed(events)) {
                atomic_file_report(events, "carom");
                ok = false;
            }
        }
        progress_update(&bar, done, steps);
    }
    progress_end(&bar);
    return ok;
}

/* The output files of a run, in the order they are opened and put in place. */
enum { OUTPUT_OUT, OUTPUT_TRACE, OUTPUT_SAVE, OUTPUT_EVENTS, OUTPUT_COUNT };

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
    const char* paths[OUTPUT_COUNT] = {options->out_path, options->trace_path, options->save_path,
                                       options->events_path};
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
static bool save_snapshot(atomic_file* file, const start* from, carom_world_id world, int steps) {
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

/* The state file (--out) after `steps` steps, written to its temporary. False, having said
 * why, when it cannot take it. */
static bool write_state_file(atomic_file* file, const start* from, carom_world_id world,
                             const carom_body_id* body_ids, int steps) {
    state_write(file->file, &from->scene, world, body_ids, from->dt, from->first_step + steps);
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
    atomic_file* events = o.asked[OUTPUT_EVENTS] ? &o.files[OUTPUT_EVENTS] : NULL;
    bool ok = run_steps(options, from, world, body_ids, steps, trace, events);
    if (ok && o.asked[OUTPUT_OUT]) {
        ok = write_state_file(&o.files[OUTPUT_OUT], from, world, body_ids, steps);
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

/* Build the world, run it, write the outputs. The start is valid here. */
static int run_from(const run_options* options, const start* from, int steps) {
    carom_body_id* body_ids = calloc((size_t)from->scene.body_count + 1, sizeof(carom_body_id));
    if (body_ids == NULL) {
        fputs("carom: out of memory\n", stderr);
        return EXIT_RUN_FAILED;
    }
    carom_world_id world = carom_null_world_id;
    int status = start_build_world(options->input_path, from, &world, body_ids);
    if (status == 0) {
        status = run_world(options, from, world, body_ids, steps);
        carom_destroy_world(world);
    }
    free(body_ids);
    return status;
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
    int status = which == COMMAND_RUN
                     ? start_from_scene(options.input_path, options.dt_given ? options.dt : 0.0,
                                        options.substeps_given ? options.substeps : 0,
                                        options.save_path != NULL, &from)
                     : start_from_snapshot(options.input_path, &from);
    if (status == 0) {
        from.scene.worker_count = options.threads_given ? options.threads : 1;
        status = start_steps(&from, options.steps, options.time_given, options.time, &steps);
    }
    if (status == 0) {
        status = run_from(&options, &from, steps);
    }
    start_free(&from);
    return status;
}

int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "run") == 0) {
        return command_run(COMMAND_RUN, argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "resume") == 0) {
        return command_run(COMMAND_RESUME, argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "render") == 0) {
        return command_render(argc - 2, argv + 2);
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
