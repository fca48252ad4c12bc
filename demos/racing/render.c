/* Drawing the race: see render.h. The world's own shapes (walls, cars) come through
 * render_world (tools/render/world_draw.h, the drawing `carom render` uses too) into the
 * canvas; the track's surfaces, which are sensors, are drawn from the track's geometry so that
 * each has its own color. */
#include "render.h"

#include <math.h>
#include <stdio.h>

#define COLOR_GRASS 0x3f7d36u
#define COLOR_VERGE 0x5a9a45u
#define COLOR_ROAD 0x55585cu
#define COLOR_KERB_RED 0xc8322du
#define COLOR_KERB_WHITE 0xeeeeeeu
#define COLOR_ICE 0xbfe6ffu
#define COLOR_WALL 0xd8d8d8u

canvas_view render_track_view(const race* r, const canvas* c) {
    const track* t = &r->track;
    carom_vec2 lower = t->center[0], upper = t->center[0];
    for (int i = 0; i < t->count; ++i) {
        lower = carom_min_v(lower, t->center[i]);
        upper = carom_max_v(upper, t->center[i]);
    }
    double margin = t->wall_offset + 4.0;
    lower = carom_sub(lower, carom_v2(margin, margin));
    upper = carom_add(upper, carom_v2(margin, margin));
    canvas_view view;
    view.center = carom_lerp(lower, upper, 0.5);
    view.scale = fmin(c->width / (upper.x - lower.x), c->height / (upper.y - lower.y));
    return view;
}

static carom_vec2 edge(const track* t, int i, double offset) {
    i = track_wrap(t, i);
    return carom_mul_add(t->center[i], offset, t->normal[i]);
}

static void draw_track(const track* t, canvas* c, canvas_view view) {
    canvas_clear(c, COLOR_GRASS);
    for (int i = 0; i < t->count; ++i) {
        double w = t->wall_offset + 0.5;
        carom_vec2 verge[4] = {edge(t, i, -w), edge(t, i + 1, -w), edge(t, i + 1, w),
                               edge(t, i, w)};
        canvas_fill_polygon(c, view, verge, 4, COLOR_VERGE, 1.0);
    }
    for (int i = 0; i < t->count; ++i) {
        double h = t->road_half_width;
        carom_vec2 road[4] = {edge(t, i, -h), edge(t, i + 1, -h), edge(t, i + 1, h), edge(t, i, h)};
        canvas_fill_polygon(c, view, road, 4, COLOR_ROAD, 1.0);
        /* kerbs, red and white every sample */
        uint32_t kerb = (i % 2 == 0) ? COLOR_KERB_RED : COLOR_KERB_WHITE;
        for (int side = -1; side <= 1; side += 2) {
            carom_vec2 strip[4] = {edge(t, i, side * h), edge(t, i + 1, side * h),
                                   edge(t, i + 1, side * (h + 0.8)), edge(t, i, side * (h + 0.8))};
            canvas_fill_polygon(c, view, strip, 4, kerb, 1.0);
        }
    }
    canvas_fill_polygon(c, view, t->ice, 4, COLOR_ICE, 0.85);
    /* the racing line, faintly */
    for (int i = 0; i < t->count; i += 2) {
        canvas_line(c, view, t->line[i], t->line[track_wrap(t, i + 1)], 0.25, 0xffffff, 0.25);
    }
    /* checkpoints, and the start line as a chequered band */
    for (int k = 1; k < TRACK_CHECKPOINTS; ++k) {
        int i = t->checkpoint_sample[k];
        canvas_line(c, view, edge(t, i, -t->road_half_width), edge(t, i, t->road_half_width), 0.4,
                    0xf2d02e, 0.6);
    }
    int s = t->start_sample;
    for (int row = 0; row < 2; ++row) {
        for (int cell = 0; cell < 14; ++cell) {
            double a = -t->road_half_width + cell, b = a + 1.0;
            carom_vec2 along = carom_scale(row == 0 ? 0.0 : 1.0, t->tangent[s]);
            carom_vec2 next = carom_scale(row == 0 ? 1.0 : 2.0, t->tangent[s]);
            carom_vec2 square[4] = {carom_add(edge(t, s, a), along),
                                    carom_add(edge(t, s, b), along), carom_add(edge(t, s, b), next),
                                    carom_add(edge(t, s, a), next)};
            canvas_fill_polygon(c, view, square, 4, ((cell + row) % 2) ? 0x111111 : 0xffffff, 1.0);
        }
    }
}

typedef struct recolor_context {
    const race* race;
} recolor_context;

/* Walls in light grey, sensors skipped (drawn with the track), cars in their own colors. */
static uint32_t recolor(uint32_t color, carom_vec2 centroid, void* user) {
    const race* r = ((const recolor_context*)user)->race;
    if (color == CAROM_COLOR_SENSOR) {
        return RENDER_SKIP;
    }
    if (color == CAROM_COLOR_STATIC) {
        return COLOR_WALL;
    }
    for (int i = 0; i < RACE_CARS; ++i) {
        if (carom_distance(carom_body_get_world_center(r->cars[i].body), centroid) < 0.5) {
            return r->cars[i].color;
        }
    }
    if (carom_distance(carom_body_get_world_center(r->trailer.body), centroid) < 0.5) {
        return 0xc8c0b0; /* the trailer's tarpaulin */
    }
    if (carom_distance(carom_body_get_world_center(r->gate.arm), centroid) < 0.5) {
        return 0xf0d020; /* a barrier arm's yellow */
    }
    return color;
}

/* The windscreen 1.1 to 1.9 m behind the nose, the rear window 0.7 to 1.1 m ahead of the tail. */
static void draw_car_details(const race_car* car, canvas* c, canvas_view view) {
    carom_transform xf = carom_body_get_transform(car->body);
    double front = car->half_length - 1.9, rear = 0.7 - car->half_length;
    carom_vec2 glass[4] = {
        {front, 0.7}, {front + 0.8, 0.6}, {front + 0.8, -0.6}, {front, -0.7}};
    carom_vec2 rear_glass[4] = {
        {rear, 0.65}, {rear + 0.4, 0.7}, {rear + 0.4, -0.7}, {rear, -0.65}};
    for (int i = 0; i < 4; ++i) {
        glass[i] = carom_transform_point(xf, glass[i]);
        rear_glass[i] = carom_transform_point(xf, rear_glass[i]);
    }
    canvas_fill_polygon(c, view, glass, 4, 0x1c2430, 0.9);
    canvas_fill_polygon(c, view, rear_glass, 4, 0x1c2430, 0.9);
}

static void draw_table(const race* r, canvas* c, double size) {
    char lines[RACE_CARS + 2][96];
    snprintf(lines[0], sizeof(lines[0]), "t = %6.2f s   lap   best     last",
             race_seconds(r->step));
    int order[RACE_CARS];
    race_standings(r, order);
    for (int p = 0; p < RACE_CARS; ++p) {
        const race_car* car = &r->cars[order[p]];
        char best[16] = "   -  ", last[16] = "   -  ";
        if (car->lap_count > 0) {
            snprintf(best, sizeof(best), "%6.2f", race_seconds(car->best_lap_steps));
            snprintf(last, sizeof(last), "%6.2f", race_seconds(car->lap_steps[car->lap_count - 1]));
        }
        snprintf(lines[p + 1], sizeof(lines[p + 1]), "%d %-8s %s %3d  %s  %s", p + 1, car->name,
                 car->human ? "*" : " ", car->lap_count, best, last);
    }
    double line_height = 12.0 * size;
    double width = canvas_text_width(lines[0], size) + 14.0 * size;
    for (int i = 1; i <= RACE_CARS; ++i) {
        width = fmax(width, canvas_text_width(lines[i], size) + 14.0 * size);
    }
    double x = 8.0 * size, y = 8.0 * size;
    canvas_fill_rect_px(c, x, y, x + width, y + line_height * (RACE_CARS + 1) + 8.0 * size,
                        0x101418, 0.75);
    canvas_text_px(c, x + 6.0 * size, y + 5.0 * size, size, lines[0], 0xffffff);
    for (int p = 0; p < RACE_CARS; ++p) {
        const race_car* car = &r->cars[order[p]];
        double ly = y + 5.0 * size + line_height * (p + 1);
        canvas_fill_rect_px(c, x + 4.0 * size, ly, x + 8.0 * size, ly + 7.0 * size, car->color,
                            1.0);
        canvas_text_px(c, x + 12.0 * size, ly, size, lines[p + 1], 0xe8e8e8);
    }
}

void render_race(const race* r, canvas* c, canvas_view view, render_options options) {
    const track* t = &r->track;
    draw_track(t, c, view);
    int skids = r->skid_count < RACE_MAX_SKIDS ? r->skid_count : RACE_MAX_SKIDS;
    for (int i = 0; i < skids; ++i) {
        canvas_line(c, view, r->skids[i].a, r->skids[i].b, 0.3, 0x1a1a1a, 0.45);
    }
    recolor_context recolor_user = {r};
    render_style style = {0.5, 1.0, 1.0, true, recolor, &recolor_user};
    render_world(c, view, r->world, &style);
    for (int i = 0; i < RACE_CARS; ++i) {
        draw_car_details(&r->cars[i], c, view);
        if (options.show_rays && !r->cars[i].human) {
            const race_ai* ai = &r->cars[i].ai;
            for (int k = 0; k < 3; ++k) {
                canvas_line(c, view, ai->ray_from[k], ai->ray_to[k], 0.12,
                            ai->ray_hit[k] ? 0xff4040 : 0xffffff, 0.5);
            }
        }
    }
    for (int i = 0; i < RACE_MAX_SPARKS; ++i) {
        const race_spark* spark = &r->sparks[i];
        if (spark->life > 0.0) {
            carom_vec2 tail = carom_mul_sub(spark->position, 0.04, spark->velocity);
            canvas_line(c, view, tail, spark->position, 0.3,
                        spark->life > 0.4 ? 0xfff2a0 : 0xffa020, 1.0);
        }
    }
    if (options.show_table) {
        draw_table(r, c, options.text_size);
    }
}
