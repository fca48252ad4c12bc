/* racing: eight cars and a truck towing a trailer on a closed track, a carom vehicle demo.
 *
 *   racing --headless --seconds 60 --png out.png [--frames K --frames-dir DIR] [--rays]
 *   racing                      (with SDL2: drive the white car with the keyboard)
 *
 * Headless, it runs the race for the given time at 60 steps per second, prints the lap table
 * and a hash of the final state (identical on every run), and writes the final frame as PNG,
 * plus one frame every K steps when asked (docs/racing.md assembles them into a GIF). */
#include "race.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef RACING_HAVE_SDL
int racing_interactive(race* r, int human); /* sdl_view.c */
#endif

typedef struct options {
    int headless;
    double seconds;
    const char* png;
    int frames_every;
    const char* frames_dir;
    int width, height;
    int rays;
    int trace_every;
    int follow;  /* car to follow (1..8), 0: show the whole track */
    int inset;   /* car (1..8) to show close up in an inset inside the track, 0: none */
    double zoom; /* pixels per metre when following */
} options;

static void usage(FILE* out) {
    fprintf(
        out,
        "usage: racing [--headless] [--seconds S] [--png FILE] [--frames K] [--frames-dir DIR]\n"
        "              [--size WxH] [--rays]\n"
        "  --headless      run without a window (the default without SDL2)\n"
        "  --seconds S     race time to simulate headless, default 60\n"
        "  --png FILE      write the final frame as PNG\n"
        "  --frames K      also write a PNG every K steps into --frames-dir (default frames/)\n"
        "  --size WxH      picture size in pixels, default 1280x800\n"
        "  --rays          draw the AI drivers' ray casts\n"
        "  --follow N      keep car N (1..9; 9 is the truck) in the middle of the picture,\n"
        "                  at --zoom\n"
        "  --zoom Z        pixels per metre when following, default 8\n"
        "  --inset N       also show car N (1..9) close up (at --zoom) inside the track\n"
        "  --trace K       print every car's speed, track position and input every K steps\n");
}

static int parse(int argc, char** argv, options* o) {
    memset(o, 0, sizeof(*o));
    o->seconds = 60.0;
    o->frames_dir = "frames";
    o->width = 1280;
    o->height = 800;
    o->zoom = 8.0;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--headless") == 0) {
            o->headless = 1;
        } else if (strcmp(a, "--rays") == 0) {
            o->rays = 1;
        } else if (strcmp(a, "--seconds") == 0 && next) {
            o->seconds = atof(next);
            ++i;
        } else if (strcmp(a, "--png") == 0 && next) {
            o->png = next;
            ++i;
        } else if (strcmp(a, "--frames") == 0 && next) {
            o->frames_every = atoi(next);
            ++i;
        } else if (strcmp(a, "--follow") == 0 && next) {
            o->follow = atoi(next);
            ++i;
        } else if (strcmp(a, "--inset") == 0 && next) {
            o->inset = atoi(next);
            ++i;
        } else if (strcmp(a, "--zoom") == 0 && next) {
            o->zoom = atof(next);
            ++i;
        } else if (strcmp(a, "--trace") == 0 && next) {
            o->trace_every = atoi(next);
            ++i;
        } else if (strcmp(a, "--frames-dir") == 0 && next) {
            o->frames_dir = next;
            ++i;
        } else if (strcmp(a, "--size") == 0 && next &&
                   sscanf(next, "%dx%d", &o->width, &o->height) == 2) {
            ++i;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "racing: bad argument '%s'\n", a);
            usage(stderr);
            return -1;
        }
    }
    if (!(o->seconds > 0.0 && o->seconds < 1e6) || o->frames_every < 0 || o->width < 64 ||
        o->height < 64 || o->width > 8192 || o->height > 8192 || o->follow < 0 ||
        o->follow > RACE_CARS || o->inset < 0 || o->inset > RACE_CARS ||
        !(o->zoom > 0.0 && o->zoom < 1000.0)) {
        fprintf(stderr,
                "racing: --seconds must be > 0, --frames >= 0, --size within 64..8192, "
                "--follow 0..%d, --zoom > 0\n",
                RACE_CARS);
        return -1;
    }
    return 0;
}

/* A close-up of one car in the middle of the picture (inside the loop of the track), framed,
 * with its frame drawn on the track too. */
static void draw_inset(const race* r, const options* o, canvas* c, canvas_view track_view,
                       int supersample) {
    int w = (int)(0.44 * c->width), h = (int)(0.32 * c->height);
    int x = (int)(0.30 * c->width), y = (int)(0.48 * c->height);
    canvas inset = canvas_make(w, h);
    canvas_view view;
    view.center = carom_body_get_position(r->cars[o->inset - 1].body);
    view.scale = o->zoom * supersample;
    render_options ro = {o->rays, 0, 1.5 * supersample};
    render_race(r, &inset, view, ro);
    double border = 2.0 * supersample;
    canvas_fill_rect_px(c, x - border, y - border, x + w + border, y + h + border, 0xffffff, 1.0);
    canvas_blit(c, &inset, x, y);
    canvas_free(&inset);
    /* where it is */
    double half_w = 0.5 * w / view.scale, half_h = 0.5 * h / view.scale;
    carom_vec2 frame[4] = {carom_add(view.center, carom_v2(-half_w, -half_h)),
                           carom_add(view.center, carom_v2(half_w, -half_h)),
                           carom_add(view.center, carom_v2(half_w, half_h)),
                           carom_add(view.center, carom_v2(-half_w, half_h))};
    canvas_outline(c, track_view, frame, 4, 1.0 / track_view.scale * supersample, 0xffffff);
}

/* Render the race at twice the size and write it averaged down (smooth edges). */
static int write_frame(const race* r, const options* o, const char* path) {
    const int supersample = 2;
    canvas c = canvas_make(o->width * supersample, o->height * supersample);
    canvas_view view = render_track_view(r, &c);
    if (o->follow > 0) {
        view.center = carom_body_get_position(r->cars[o->follow - 1].body);
        view.scale = o->zoom * supersample;
    }
    render_options ro = {o->rays, 1, 1.5 * supersample};
    render_race(r, &c, view, ro);
    if (o->inset > 0 && o->follow == 0) {
        draw_inset(r, o, &c, view, supersample);
    }
    int status = canvas_write_png(&c, path, supersample, "racing"); /* says why it failed */
    canvas_free(&c);
    return status;
}

static void trace(const race* r) {
    fprintf(stderr, "t %7.2f", race_seconds(r->step));
    for (int i = 0; i < RACE_CARS; ++i) {
        const race_car* car = &r->cars[i];
        carom_vehicle_input in = carom_vehicle_get_input(car->vehicle);
        double speed = carom_length(carom_body_get_linear_velocity(car->body));
        fprintf(stderr, " | %c %4.1f @%4d c%d t%+.1f b%.1f s%+.2f", car->name[0], speed,
                car->ai.line_index, car->next_checkpoint, in.throttle, in.brake, in.steer);
    }
    fprintf(stderr, "\n");
}

static int run_headless(race* r, const options* o) {
    int steps = (int)(o->seconds * 60.0 + 0.5);
    char path[4096];
    for (int step = 0; step < steps; ++step) {
        if (o->frames_every > 0 && step % o->frames_every == 0) {
            snprintf(path, sizeof(path), "%s/frame_%05d.png", o->frames_dir,
                     step / o->frames_every);
            if (write_frame(r, o, path) != 0) {
                return 1;
            }
        }
        if (race_step(r) != 0) {
            return 1;
        }
        if (o->trace_every > 0 && r->step % o->trace_every == 0) {
            trace(r);
        }
    }
    race_print_table(r, stdout);
    if (o->png != NULL) {
        if (write_frame(r, o, o->png) != 0) {
            return 1;
        }
        fprintf(stderr, "racing: wrote %s\n", o->png);
    }
    return 0;
}

int main(int argc, char** argv) {
    options o;
    if (parse(argc, argv, &o) != 0) {
        return 2;
    }
#ifndef RACING_HAVE_SDL
    if (!o.headless) {
        fprintf(stderr, "racing: built without SDL2, so there is no window: running headless "
                        "(install libsdl2-dev and rebuild for the interactive mode)\n");
        o.headless = 1;
    }
#endif
    race* r = malloc(sizeof(race));
    if (race_create(r, o.headless ? -1 : RACE_HUMAN_CAR) != 0) {
        fprintf(stderr, "racing: could not build the race: %s\n", carom_last_error());
        free(r);
        return 1;
    }
    int status;
#ifdef RACING_HAVE_SDL
    status = o.headless ? run_headless(r, &o) : racing_interactive(r, RACE_HUMAN_CAR);
#else
    status = run_headless(r, &o);
#endif
    race_destroy(r);
    free(r);
    return status;
}
