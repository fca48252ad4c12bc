/* carom render: see render_command.h and docs/cli.md.
 *
 * It keeps `carom run`'s order of work, so that a bad input leaves nothing behind: arguments,
 * then the whole input file, then the world is built (and restored), then the output is opened,
 * and only then does it run. Frames are drawn at twice the size asked for and averaged down
 * (smooth edges, canvas.h), at steps 0, K, 2K, ... of the run; a PNG shows the last step. */
#define _POSIX_C_SOURCE 200809L
#include "render_command.h"

#include "arguments.h"
#include "atomic_file.h"
#include "canvas.h"
#include "gif.h"
#include "progress.h"
#include "run_start.h"
#include "world_draw.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PICTURE_MIN_SIZE 16
#define PICTURE_MAX_SIZE 4096
#define PICTURE_DEFAULT_SIDE 640 /* the longer side, when --size is not given */
#define SUPERSAMPLE 2
#define BACKGROUND 0x1d2026u
#define MARGIN 0.04     /* of the picture on each side, around the bodies */
#define LINE_PIXELS 1.5 /* segments and chains; outlines half of it */
#define SENSOR_ALPHA 0.35
#define SHORTEST_GIF_DELAY 0.02  /* s: viewers show a frame for at least this long */
#define LONGEST_GIF_DELAY 655.35 /* s: the longest a GIF frame can say (65535 hundredths) */

const char render_usage_text[] =
    "usage: carom render INPUT (--png FILE | --gif FILE | --frames FOLDER)\n"
    "                    [--steps N | --time SECONDS] [--every K] [--size WxH]\n"
    "                    [--view X0,Y0,X1,Y1] [--quiet]\n"
    "\n"
    "render draws a scene, state or snapshot file (carom run --save): static bodies grey,\n"
    "kinematic blue, dynamic amber, sleeping olive, sensors see-through green, joints cyan.\n"
    "  --png FILE       the world after the steps (by default none: as the file has it)\n"
    "  --gif FILE       the run as an animated GIF that loops, a frame every K steps\n"
    "  --frames FOLDER  the run as FOLDER/frame_00000.png, frame_00001.png, ...\n"
    "  --steps N        steps to run (default 0 for --png, 60 for --gif and --frames)\n"
    "  --time SECONDS   run ceil(SECONDS / dt) steps\n"
    "  --every K        a frame every K steps (default: 1 for --frames; for --gif the\n"
    "                   fewest steps that last 0.02 s, the shortest delay viewers show)\n"
    "  --size WxH       the picture in pixels, each from 16 to 4096 (default: 640 on the\n"
    "                   longer side, the other side from the region's shape)\n"
    "  --view X0,Y0,X1,Y1  the region to show, in metres: its lower-left and upper-right\n"
    "                   corners (default: every shape at the start, with a margin)\n"
    "  --quiet          no progress line on a terminal\n";

typedef enum picture_kind { PICTURE_NONE, PICTURE_PNG, PICTURE_GIF, PICTURE_FRAMES } picture_kind;

typedef struct render_options {
    const char* input_path;
    const char* png_path;
    const char* gif_path;
    const char* frames_path;
    int outputs_named; /* --png, --gif and --frames given, with a value or not */
    int steps;
    bool steps_given;
    double time;
    bool time_given;
    int every;
    bool every_given;
    bool size_given;
    int width, height; /* pixels */
    bool view_given;
    carom_aabb view; /* m */
    bool quiet;
} render_options;

/* ---- Arguments -------------------------------------------------------------------------- */

/* "WxH", two whole numbers of pixels in range. */
static bool parse_size(const char* text, int* width, int* height) {
    const char* x = strchr(text, 'x');
    char first[16];
    if (x == NULL || x == text || (size_t)(x - text) >= sizeof(first)) {
        return false;
    }
    memcpy(first, text, (size_t)(x - text));
    first[x - text] = '\0';
    return parse_integer(first, PICTURE_MIN_SIZE, PICTURE_MAX_SIZE, width) &&
           parse_integer(x + 1, PICTURE_MIN_SIZE, PICTURE_MAX_SIZE, height);
}

/* "X0,Y0,X1,Y1": four finite numbers of metres, at most 1e12 in magnitude. */
static bool parse_region(const char* text, carom_aabb* region) {
    double values[4];
    const char* from = text;
    for (int i = 0; i < 4; ++i) {
        const char* comma = strchr(from, ',');
        if ((comma == NULL) != (i == 3)) {
            return false;
        }
        size_t length = comma != NULL ? (size_t)(comma - from) : strlen(from);
        char number[64];
        if (length >= sizeof(number)) {
            return false;
        }
        memcpy(number, from, length);
        number[length] = '\0';
        if (!parse_real(number, &values[i]) || fabs(values[i]) > CAROM_MAX_MAGNITUDE) {
            return false;
        }
        from = comma + 1;
    }
    region->lower = carom_v2(values[0], values[1]);
    region->upper = carom_v2(values[2], values[3]);
    return true;
}

static void parse_size_option(arguments* args, const char* value, render_options* o) {
    if (value == NULL) {
        return;
    }
    if (o->size_given) {
        argument_error(args, "--size is given twice");
    }
    o->size_given = true;
    if (!parse_size(value, &o->width, &o->height)) {
        argument_error(args,
                       "--size must be WIDTHxHEIGHT, two whole numbers of pixels from %d to %d, "
                       "got '%s'",
                       PICTURE_MIN_SIZE, PICTURE_MAX_SIZE, value);
    }
}

static void parse_view_option(arguments* args, const char* value, render_options* o) {
    if (value == NULL) {
        return;
    }
    if (o->view_given) {
        argument_error(args, "--view is given twice");
    }
    o->view_given = true;
    if (!parse_region(value, &o->view)) {
        argument_error(args,
                       "--view must be X0,Y0,X1,Y1, four numbers of metres (at most 1e12 in "
                       "magnitude), got '%s'",
                       value);
    } else if (!(o->view.lower.x < o->view.upper.x && o->view.lower.y < o->view.upper.y)) {
        argument_error(args,
                       "--view '%s': the lower-left corner must be below and left of the "
                       "upper-right one (X0 < X1 and Y0 < Y1)",
                       value);
    }
}

/* Every option of render, for the hint after a mistyped one (parse_option reads them). */
static const char* const known_options[] = {"--png",   "--gif",  "--frames", "--steps", "--time",
                                            "--every", "--size", "--view",   "--quiet"};

/* One "--name[=value]" option. */
static void parse_option(arguments* args, const char* argument, render_options* o) {
    char name[32];
    const char* equals = strchr(argument, '=');
    size_t length = equals != NULL ? (size_t)(equals - argument) : strlen(argument);
    snprintf(name, sizeof(name), "%.*s", (int)(length < 31 ? length : 31), argument);
    const char* inline_value = equals != NULL ? equals + 1 : NULL;
    if (strcmp(name, "--quiet") == 0) {
        if (inline_value != NULL) {
            argument_error(args, "%s takes no value", name);
        }
        o->quiet = true;
    } else if (strcmp(name, "--png") == 0 || strcmp(name, "--gif") == 0 ||
               strcmp(name, "--frames") == 0) {
        const char** path = name[2] == 'p'   ? &o->png_path
                            : name[2] == 'g' ? &o->gif_path
                                             : &o->frames_path;
        parse_path_option(args, name, option_value(args, name, inline_value), path);
        o->outputs_named += 1;
    } else if (strcmp(name, "--steps") == 0) {
        parse_count_option(args, name, option_value(args, name, inline_value), 0, INT_MAX,
                           &o->steps, &o->steps_given);
    } else if (strcmp(name, "--time") == 0) {
        parse_seconds_option(args, name, option_value(args, name, inline_value), true, &o->time,
                             &o->time_given);
    } else if (strcmp(name, "--every") == 0) {
        parse_count_option(args, name, option_value(args, name, inline_value), 1, INT_MAX,
                           &o->every, &o->every_given);
    } else if (strcmp(name, "--size") == 0) {
        parse_size_option(args, option_value(args, name, inline_value), o);
    } else if (strcmp(name, "--view") == 0) {
        parse_view_option(args, option_value(args, name, inline_value), o);
    } else {
        refuse_unknown_option(args, argument, name, known_options,
                              (int)(sizeof(known_options) / sizeof(known_options[0])));
    }
}

static picture_kind picture_of(const render_options* o) {
    return o->png_path != NULL      ? PICTURE_PNG
           : o->gif_path != NULL    ? PICTURE_GIF
           : o->frames_path != NULL ? PICTURE_FRAMES
                                    : PICTURE_NONE;
}

/* What the options say together: one output, one length of run, --every for animations only,
 * a folder that is there for the frames. */
static void check_render_options(arguments* args, const render_options* o) {
    if (o->input_path == NULL) {
        argument_error(args, "render needs a scene, state or snapshot file: carom render FILE "
                             "--png PICTURE.png");
    }
    int outputs = (o->png_path != NULL) + (o->gif_path != NULL) + (o->frames_path != NULL);
    if (o->outputs_named == 0) {
        argument_error(args, "render needs an output: --png FILE, --gif FILE or --frames FOLDER");
    } else if (outputs > 1) {
        argument_error(args, "--png, --gif and --frames each name the one output: give one");
    }
    if (o->steps_given && o->time_given) {
        argument_error(args, "--steps and --time both say how long to run: give one");
    }
    if (o->every_given && o->png_path != NULL) {
        argument_error(args, "--every only applies to --gif and --frames: a PNG is one picture");
    }
    struct stat folder;
    if (o->frames_path != NULL && o->frames_path[0] != '\0' &&
        (stat(o->frames_path, &folder) != 0 || !S_ISDIR(folder.st_mode))) {
        argument_error(args, "--frames '%s': no such folder (the frames go into it)",
                       o->frames_path);
    }
}

/* The arguments after "render". False (having said why) when they are unusable. */
static bool parse_render_arguments(int argc, char** argv, render_options* o) {
    arguments args = {argc, argv, 0, 0};
    memset(o, 0, sizeof(*o));
    bool only_paths = false;
    while (args.next < argc) {
        const char* argument = argv[args.next++];
        if (!only_paths && strcmp(argument, "--") == 0) {
            only_paths = true;
        } else if (!only_paths && argument[0] == '-' && argument[1] != '\0') {
            parse_option(&args, argument, o);
        } else if (o->input_path != NULL) {
            argument_error(&args, "one input file at a time: '%s' and '%s'", o->input_path,
                           argument);
        } else {
            o->input_path = argument;
        }
    }
    check_render_options(&args, o);
    if (args.error_count > 0) {
        fputs("carom: see 'carom render --help'\n", stderr);
    }
    if (!o->steps_given) {
        o->steps = picture_of(o) == PICTURE_PNG ? 0 : 60;
    }
    return args.error_count == 0;
}

/* ---- The picture ------------------------------------------------------------------------- */

/* Everything a frame needs, fixed before the run. */
typedef struct picture {
    picture_kind kind;
    int width, height; /* pixels written */
    canvas canvas;     /* SUPERSAMPLE times larger */
    canvas_view view;
    render_style style;
    int every;            /* steps between frames */
    double frame_seconds; /* the time a frame stands for: every * dt */
    int frames_done;
    atomic_file file; /* --png and --gif */
    bool file_open;
    gif_writer gif;
    bool gif_open;
} picture;

/* The region shown: --view, or every shape of the world as built, or 20 m round the origin
 * when it has none. */
static carom_aabb region_to_show(const render_options* o, carom_world_id world) {
    carom_aabb region;
    if (o->view_given) {
        return o->view;
    }
    if (render_world_bounds(world, &region)) {
        return region;
    }
    return (carom_aabb){{-10.0, -10.0}, {10.0, 10.0}};
}

/* --size, or the longer side PICTURE_DEFAULT_SIDE and the other in the region's proportion. */
static void picture_size(const render_options* o, carom_aabb region, int* width, int* height) {
    if (o->size_given) {
        *width = o->width;
        *height = o->height;
        return;
    }
    double w = region.upper.x - region.lower.x, h = region.upper.y - region.lower.y;
    double ratio = w > 0.0 && h > 0.0 ? h / w : 1.0;
    double other = PICTURE_DEFAULT_SIDE * (ratio <= 1.0 ? ratio : 1.0 / ratio);
    int side = (int)fmax(PICTURE_MIN_SIZE, floor(other + 0.5));
    *width = ratio <= 1.0 ? PICTURE_DEFAULT_SIDE : side;
    *height = ratio <= 1.0 ? side : PICTURE_DEFAULT_SIDE;
}

/* --every, or for a GIF the fewest steps that last SHORTEST_GIF_DELAY. */
static int frame_every(const render_options* o, picture_kind kind, double dt) {
    if (o->every_given) {
        return o->every;
    }
    if (kind != PICTURE_GIF) {
        return 1;
    }
    double every = ceil(SHORTEST_GIF_DELAY / dt);
    return every <= 1.0 ? 1 : every >= (double)INT_MAX ? INT_MAX : (int)every;
}

/* The canvas, the view and the style; the output opened. Returns 0 or an exit status, having
 * said why. */
static int picture_open(picture* p, const render_options* o, const start* from,
                        carom_world_id world) {
    memset(p, 0, sizeof(*p));
    p->kind = picture_of(o);
    p->every = frame_every(o, p->kind, from->dt);
    p->frame_seconds = (double)p->every * from->dt;
    if (p->kind == PICTURE_GIF && p->frame_seconds > LONGEST_GIF_DELAY) {
        fprintf(stderr,
                "carom: a frame every %d steps of %g s lasts %g s, longer than a GIF frame can "
                "(655.35 s): give a smaller --every\n",
                p->every, from->dt, p->frame_seconds);
        return EXIT_BAD_INPUT;
    }
    carom_aabb region = region_to_show(o, world);
    picture_size(o, region, &p->width, &p->height);
    p->canvas = canvas_make(p->width * SUPERSAMPLE, p->height * SUPERSAMPLE);
    if (p->canvas.pixels == NULL) {
        fprintf(stderr, "carom: out of memory for a %dx%d picture\n", p->width, p->height);
        return EXIT_RUN_FAILED;
    }
    p->view =
        render_fit_view(region, p->canvas.width, p->canvas.height, o->view_given ? 0.0 : MARGIN);
    render_style style = {
        LINE_PIXELS * SUPERSAMPLE / p->view.scale, 1.0, SENSOR_ALPHA, true, NULL, NULL};
    p->style = style;
    const char* path = p->kind == PICTURE_PNG ? o->png_path : o->gif_path;
    if (p->kind != PICTURE_FRAMES) {
        if (!atomic_file_open(&p->file, path)) {
            atomic_file_report(&p->file, "carom");
            return EXIT_RUN_FAILED;
        }
        p->file_open = true;
    }
    if (p->kind == PICTURE_GIF) {
        if (!gif_begin(&p->gif, p->file.file, p->width, p->height)) {
            fputs("carom: out of memory for the GIF writer\n", stderr);
            return EXIT_RUN_FAILED;
        }
        p->gif_open = true;
    }
    return 0;
}

/* Give up: the output's target stays as it was. */
static void picture_discard(picture* p) {
    if (p->gif_open) {
        gif_free(&p->gif);
    }
    if (p->file_open) {
        atomic_file_discard(&p->file);
    }
    canvas_free(&p->canvas);
}

/* Frame `index`'s delay in hundredths of a second: the rounded times of its start and end
 * differ by it, so that the delays add up to the run's time however they round. */
static int frame_delay(const picture* p, int index) {
    double start_time = floor(100.0 * p->frame_seconds * index + 0.5);
    double end_time = floor(100.0 * p->frame_seconds * (index + 1) + 0.5);
    return (int)(end_time - start_time);
}

/* --frames: one file, whole or not at all, as soon as it is drawn. */
static bool write_frame_file(const picture* p, const char* folder, const canvas* small) {
    size_t size = strlen(folder) + 32;
    char* path = malloc(size);
    if (path == NULL) {
        fputs("carom: out of memory\n", stderr);
        return false;
    }
    snprintf(path, size, "%s/frame_%05d.png", folder, p->frames_done);
    atomic_file file;
    bool ok = atomic_file_open(&file, path);
    if (ok && !canvas_put_png(small, &file)) {
        fprintf(stderr, "carom: could not encode '%s' as PNG: out of memory\n", path);
        atomic_file_discard(&file);
        free(path);
        return false;
    }
    ok = ok && atomic_file_commit(&file);
    if (!ok) {
        atomic_file_report(&file, "carom");
    }
    atomic_file_discard(&file);
    free(path);
    return ok;
}

/* Draw the world as it is and put the frame where it goes. False, having said why, on failure. */
static bool picture_frame(picture* p, const render_options* o, carom_world_id world) {
    canvas_clear(&p->canvas, BACKGROUND);
    if (render_world(&p->canvas, p->view, world, &p->style) != CAROM_OK) {
        fprintf(stderr, "carom: could not draw the world: %s\n", carom_last_error());
        return false;
    }
    canvas small = canvas_downsample(&p->canvas, SUPERSAMPLE);
    if (small.pixels == NULL) {
        fputs("carom: out of memory\n", stderr);
        return false;
    }
    bool ok = true;
    if (p->kind == PICTURE_FRAMES) {
        ok = write_frame_file(p, o->frames_path, &small);
    } else if (p->kind == PICTURE_GIF) {
        ok = gif_add_frame(&p->gif, small.pixels, frame_delay(p, p->frames_done));
        if (!ok) {
            fputs("carom: out of memory for a GIF frame\n", stderr);
        }
    } else if (!canvas_put_png(&small, &p->file)) {
        fputs("carom: could not encode the PNG: out of memory\n", stderr);
        ok = false;
    }
    if (ok && p->file_open && atomic_file_failed(&p->file)) {
        atomic_file_report(&p->file, "carom"); /* a full disk stops a long render at once */
        ok = false;
    }
    canvas_free(&small);
    p->frames_done += 1;
    return ok;
}

/* The GIF's trailer, then the file put in place. */
static bool picture_finish(picture* p) {
    if (p->gif_open) {
        gif_end(&p->gif);
        p->gif_open = false;
    }
    bool ok = !p->file_open || atomic_file_commit(&p->file);
    if (!ok) {
        atomic_file_report(&p->file, "carom");
    }
    picture_discard(p);
    return ok;
}

/* Run the built world, drawing at steps 0, K, 2K, ... (a PNG: at the last step only). */
static int render_world_run(const render_options* o, const start* from, carom_world_id world,
                            int steps) {
    picture p;
    int status = picture_open(&p, o, from, world);
    if (status != 0) {
        picture_discard(&p);
        return status;
    }
    progress bar;
    progress_init(&bar, o->quiet);
    bool ok = true;
    for (int done = 0; ok && done <= steps; ++done) {
        if (done > 0 &&
            (scene_apply_controls(&from->scene, from->first_step + done - 1) != CAROM_OK ||
             carom_world_step(world, from->dt) != CAROM_OK)) {
            progress_end(&bar);
            fprintf(stderr, "carom: step %lld failed: %s\n", (long long)(from->first_step + done),
                    carom_last_error());
            ok = false;
            break;
        }
        bool drawn = p.kind == PICTURE_PNG ? done == steps : done % p.every == 0;
        if (drawn) {
            ok = picture_frame(&p, o, world);
        }
        if (done > 0) {
            progress_update(&bar, done, steps);
        }
    }
    progress_end(&bar);
    if (!ok) {
        picture_discard(&p);
        return EXIT_RUN_FAILED;
    }
    return picture_finish(&p) ? 0 : EXIT_RUN_FAILED;
}

int command_render(int argc, char** argv) {
    atomic_file_clean_up_on_signals(); /* Ctrl-C in a long render leaves no temporary behind */
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(render_usage_text, stdout);
            return 0;
        }
    }
    render_options o;
    if (!parse_render_arguments(argc, argv, &o)) {
        return EXIT_BAD_INPUT;
    }
    start from;
    memset(&from, 0, sizeof(from));
    int steps = 0;
    int status = is_snapshot_file(o.input_path)
                     ? start_from_snapshot(o.input_path, &from)
                     : start_from_scene(o.input_path, 0.0, 0, false, &from);
    if (status == 0) {
        status = start_steps(&from, o.steps, o.time_given, o.time, &steps);
    }
    carom_body_id* body_ids = NULL;
    if (status == 0) {
        body_ids = calloc((size_t)from.scene.body_count + 1, sizeof(carom_body_id));
        status = body_ids != NULL ? 0 : EXIT_RUN_FAILED;
        if (body_ids == NULL) {
            fputs("carom: out of memory\n", stderr);
        }
    }
    carom_world_id world = carom_null_world_id;
    if (status == 0) {
        status = start_build_world(o.input_path, &from, &world, body_ids);
    }
    if (status == 0) {
        status = render_world_run(&o, &from, world, steps);
        carom_destroy_world(world);
    }
    free(body_ids);
    start_free(&from);
    return status;
}
