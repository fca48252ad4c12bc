/* billiards: the break, with restitution.
 *
 * A 9-foot table seen from above (playing area 2.54 m x 1.27 m, gravity zero, the cloth's
 * rolling resistance as linear damping), fifteen balls racked in a triangle and the cue ball
 * struck at 9 m/s. Balls and cushions have restitution 0.9, so each collision keeps 0.9 of the
 * approach speed (carom uses the larger restitution of a pair). The six pockets are sensors:
 * a ball whose sensor event fires is taken off the table. The picture shows every ball's path
 * and where the balls came to rest; the program also measures the restitution of one ball
 * bounced off a cushion against the value set.
 *
 *   billiards [out.png]        (default billiards.png) */
#include "seed.h"

#include <math.h>
#include <stdio.h>

#define LENGTH 2.54
#define WIDTH 1.27
#define RADIUS 0.028575
#define BALL_MASS 0.17
#define RESTITUTION 0.9
#define BALLS 16
#define DT (1.0 / 240.0)
#define MAX_TRAIL 4000

static const uint32_t ball_colors[BALLS] = {
    0xffffff, 0xf2c21b, 0x1f4fc4, 0xd8302a, 0x5b2c8f, 0xf07a1a, 0x1d8a3c, 0x7a1f1f,
    0x111111, 0xf2c21b, 0x1f4fc4, 0xd8302a, 0x5b2c8f, 0xf07a1a, 0x1d8a3c, 0x7a1f1f};

typedef struct table {
    carom_world_id world;
    carom_body_id balls[BALLS];
    carom_shape_id ball_shapes[BALLS];
    carom_shape_id pockets[6];
    int pocketed[BALLS]; /* step it dropped, or 0 */
} table;

static carom_body_id add_ball(table* t, int i, carom_vec2 p, carom_vec2 v) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.linear_velocity = v;
    def.linear_damping = 0.35; /* rolling resistance of the cloth */
    def.angular_damping = 2.0;
    def.bullet = 1;
    carom_body_id body = carom_create_body(t->world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = BALL_MASS / (CAROM_PI * RADIUS * RADIUS);
    shape.friction = 0.05;
    shape.restitution = RESTITUTION;
    carom_circle circle = {{0.0, 0.0}, RADIUS};
    t->ball_shapes[i] = carom_create_circle_shape(body, &shape, &circle);
    t->balls[i] = body;
    return body;
}

static void build_table(table* t, int with_pockets) {
    carom_world_def def = carom_default_world_def();
    def.gravity = carom_v2(0.0, 0.0);
    def.restitution_threshold = 0.05;
    t->world = carom_create_world(&def);
    carom_body_def cushion_def = carom_default_body_def();
    carom_body_id cushions = carom_create_body(t->world, &cushion_def);
    carom_shape_def cushion = carom_default_shape_def();
    cushion.restitution = RESTITUTION;
    cushion.friction = 0.1;
    carom_vec2 rim[4] = {{0.0, 0.0}, {LENGTH, 0.0}, {LENGTH, WIDTH}, {0.0, WIDTH}};
    carom_create_chain(cushions, &cushion, rim, 4, 1, NULL);
    if (with_pockets) {
        carom_shape_def pocket = carom_default_shape_def();
        pocket.is_sensor = 1;
        const carom_vec2 places[6] = {{0.0, 0.0},   {0.5 * LENGTH, -0.02},        {LENGTH, 0.0},
                                      {0.0, WIDTH}, {0.5 * LENGTH, WIDTH + 0.02}, {LENGTH, WIDTH}};
        for (int i = 0; i < 6; ++i) {
            carom_circle mouth = {places[i], 0.065};
            t->pockets[i] = carom_create_circle_shape(cushions, &pocket, &mouth);
        }
    }
}

/* One ball straight into the long cushion at 2 m/s: rebound speed over approach speed. */
static double measure_restitution(void) {
    table t = {0};
    build_table(&t, 0);
    carom_body_id ball = add_ball(&t, 0, carom_v2(1.0, 0.3), carom_v2(0.0, -2.0));
    double approach = 0.0, rebound = 0.0;
    for (int i = 0; i < 240; ++i) {
        double vy = carom_body_get_linear_velocity(ball).y;
        carom_world_step(t.world, DT);
        double after = carom_body_get_linear_velocity(ball).y;
        if (vy < 0.0 && after > 0.0) {
            approach = -vy;
            rebound = after;
            break;
        }
    }
    carom_destroy_world(t.world);
    return approach > 0.0 ? rebound / approach : 0.0;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "billiards.png";
    double e = measure_restitution();
    printf(
        "restitution: a ball off a cushion at 2 m/s comes back at %.4f of its speed (set %.2f)\n",
        e, RESTITUTION);

    static table t;
    build_table(&t, 1);
    /* the rack: apex on the foot spot, rows of 1..5 balls behind it */
    carom_vec2 foot = {0.75 * LENGTH, 0.5 * WIDTH};
    int n = 1;
    for (int row = 0; row < 5; ++row) {
        for (int k = 0; k <= row; ++k) {
            carom_vec2 p = {foot.x + row * RADIUS * sqrt(3.0) * 1.001,
                            foot.y + (k - 0.5 * row) * 2.0 * RADIUS * 1.001};
            add_ball(&t, n++, p, carom_v2(0.0, 0.0));
        }
    }
    /* the cue ball from the head string, aimed at the apex, a hair off centre */
    add_ball(&t, 0, carom_v2(0.25 * LENGTH, 0.5 * WIDTH + 0.004), carom_v2(9.0, 0.0));

    static carom_vec2 trails[BALLS][MAX_TRAIL];
    int trail_count[BALLS] = {0};
    double energy0 = carom_body_get_kinetic_energy(t.balls[0]);
    int step = 0, moving = 1;
    for (; step < 20 * 240 && moving; ++step) {
        carom_world_step(t.world, DT);
        carom_sensor_events events = carom_world_get_sensor_events(t.world);
        for (int i = 0; i < events.begin_count; ++i) {
            for (int b = 0; b < BALLS; ++b) {
                if (!t.pocketed[b] &&
                    carom_shape_id_equals(events.begin_events[i].visitor, t.ball_shapes[b])) {
                    t.pocketed[b] = step + 1;
                }
            }
        }
        moving = 0;
        for (int b = 0; b < BALLS; ++b) {
            if (t.pocketed[b] && carom_body_is_valid(t.balls[b])) {
                carom_destroy_body(t.balls[b]); /* into the pocket */
            }
            if (!carom_body_is_valid(t.balls[b])) {
                continue;
            }
            moving |= carom_length(carom_body_get_linear_velocity(t.balls[b])) > 0.01;
            if (step % 4 == 0 && trail_count[b] < MAX_TRAIL) {
                trails[b][trail_count[b]++] = carom_body_get_position(t.balls[b]);
            }
        }
    }
    printf("break: cue ball at 9 m/s (%.2f J); the table came to rest after %.2f s\n", energy0,
           step * DT);
    int count = 0;
    for (int b = 0; b < BALLS; ++b) {
        if (t.pocketed[b]) {
            printf("  ball %2d pocketed at %.3f s\n", b, t.pocketed[b] * DT);
            ++count;
        }
    }
    printf("  %d ball%s pocketed\n", count, count == 1 ? "" : "s");

    seed_grid grid = seed_grid_make(1000, 540, 1, 1, 2);
    canvas c = seed_panel(&grid);
    canvas_clear(&c, 0x5a3a1e);
    canvas_view view = seed_view(&grid, carom_v2(0.5 * LENGTH, 0.5 * WIDTH - 0.02), 360.0);
    carom_vec2 cloth[4] = {{0.0, 0.0}, {LENGTH, 0.0}, {LENGTH, WIDTH}, {0.0, WIDTH}};
    carom_vec2 rim[4] = {{-0.08, -0.08},
                         {LENGTH + 0.08, -0.08},
                         {LENGTH + 0.08, WIDTH + 0.08},
                         {-0.08, WIDTH + 0.08}};
    canvas_fill_polygon(&c, view, rim, 4, 0x2f6b3a, 1.0);
    canvas_fill_polygon(&c, view, cloth, 4, 0x2e8b47, 1.0);
    const carom_vec2 holes[6] = {{0.0, 0.0},   {0.5 * LENGTH, -0.02},        {LENGTH, 0.0},
                                 {0.0, WIDTH}, {0.5 * LENGTH, WIDTH + 0.02}, {LENGTH, WIDTH}};
    for (int i = 0; i < 6; ++i) {
        canvas_fill_circle(&c, view, holes[i], 0.065, 0x111111, 1.0);
    }
    for (int b = 0; b < BALLS; ++b) {
        for (int i = 1; i < trail_count[b]; ++i) {
            canvas_line(&c, view, trails[b][i - 1], trails[b][i], 0.006, ball_colors[b], 0.7);
        }
    }
    for (int b = 0; b < BALLS; ++b) {
        if (!carom_body_is_valid(t.balls[b])) {
            continue;
        }
        carom_vec2 p = carom_body_get_position(t.balls[b]);
        canvas_fill_circle(&c, view, p, RADIUS, 0x000000, 1.0);
        canvas_fill_circle(&c, view, p, RADIUS * 0.88, ball_colors[b], 1.0);
        if (b > 8) { /* stripes: a white band */
            canvas_fill_circle(&c, view, p, RADIUS * 0.45, 0xffffff, 1.0);
        }
    }
    char caption[120];
    snprintf(caption, sizeof(caption),
             "the break: cue ball at 9 m/s, restitution %.2f; %d pocketed", RESTITUTION, count);
    seed_grid_put(&grid, &c, 0, 0, caption);
    carom_destroy_world(t.world);
    int status = seed_grid_write(&grid, path);
    int ok = fabs(e - RESTITUTION) < 0.02;
    printf("%s: measured restitution %.4f within 0.02 of %.2f\n", ok ? "ok" : "MISMATCH", e,
           RESTITUTION);
    return status != 0 || !ok;
}
