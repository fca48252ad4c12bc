/* Shared by the seed-scenario demos: see seed.h. */
#include "seed.h"

#include <math.h>
#include <stdio.h>

static void project(const carom_vec2* points, int count, carom_vec2 axis, double* lo, double* hi) {
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < count; ++i) {
        double p = carom_dot(points[i], axis);
        *lo = fmin(*lo, p);
        *hi = fmax(*hi, p);
    }
}

static carom_vec2 centroid(const carom_vec2* points, int count) {
    carom_vec2 c = {0.0, 0.0};
    for (int i = 0; i < count; ++i) {
        c = carom_add(c, points[i]);
    }
    return carom_scale(1.0 / count, c);
}

/* Try every edge normal of `edges` as an axis. */
static void try_axes(const carom_vec2* edges, int edge_count, const carom_vec2* a, int a_count,
                     const carom_vec2* b, int b_count, carom_vec2 a_to_b, sat_result* best) {
    for (int i = 0; i < edge_count; ++i) {
        carom_vec2 e = carom_sub(edges[(i + 1) % edge_count], edges[i]);
        carom_vec2 axis = carom_normalize(carom_right_perp(e));
        if (carom_dot(axis, a_to_b) < 0.0) {
            axis = carom_neg(axis);
        }
        double a_lo, a_hi, b_lo, b_hi;
        project(a, a_count, axis, &a_lo, &a_hi);
        project(b, b_count, axis, &b_lo, &b_hi);
        double gap = fmax(b_lo - a_hi, a_lo - b_hi);
        if (gap > best->distance) {
            best->distance = gap;
            best->axis = axis;
            best->a_min = a_lo;
            best->a_max = a_hi;
            best->b_min = b_lo;
            best->b_max = b_hi;
        }
    }
}

sat_result sat_test(const carom_vec2* a, int a_count, const carom_vec2* b, int b_count) {
    sat_result result = {0, {1.0, 0.0}, -INFINITY, 0.0, 0.0, 0.0, 0.0};
    carom_vec2 a_to_b = carom_sub(centroid(b, b_count), centroid(a, a_count));
    try_axes(a, a_count, a, a_count, b, b_count, a_to_b, &result);
    try_axes(b, b_count, a, a_count, b, b_count, a_to_b, &result);
    result.separated = result.distance > 0.0;
    return result;
}

void seed_place(const carom_polygon* polygon, carom_transform xf, carom_vec2* out) {
    for (int i = 0; i < polygon->count; ++i) {
        out[i] = carom_transform_point(xf, polygon->vertices[i]);
    }
}

seed_grid seed_grid_make(int panel_width, int panel_height, int columns, int rows,
                         int supersample) {
    seed_grid grid;
    grid.columns = columns;
    grid.rows = rows;
    grid.supersample = supersample;
    grid.picture =
        canvas_make(panel_width * columns * supersample, panel_height * rows * supersample);
    canvas_clear(&grid.picture, 0xcccccc);
    return grid;
}

canvas seed_panel(const seed_grid* grid) {
    canvas panel = canvas_make(grid->picture.width / grid->columns - 2 * grid->supersample,
                               grid->picture.height / grid->rows - 2 * grid->supersample);
    canvas_clear(&panel, SEED_PAPER);
    return panel;
}

canvas_view seed_view(const seed_grid* grid, carom_vec2 center, double pixels_per_metre) {
    canvas_view view = {center, pixels_per_metre * grid->supersample};
    return view;
}

void seed_grid_put(seed_grid* grid, canvas* panel, int column, int row, const char* caption) {
    double size = 1.6 * grid->supersample;
    canvas_fill_rect_px(panel, 0, 0, canvas_text_width(caption, size) + 10.0 * size, 14.0 * size,
                        SEED_PAPER, 0.85);
    canvas_text_px(panel, 5.0 * size, 4.0 * size, size, caption, SEED_INK);
    int x = column * grid->picture.width / grid->columns + grid->supersample;
    int y = row * grid->picture.height / grid->rows + grid->supersample;
    canvas_blit(&grid->picture, panel, x, y);
    canvas_free(panel);
}

int seed_grid_write(seed_grid* grid, const char* path) {
    int status = canvas_write_png(&grid->picture, path, grid->supersample, NULL);
    canvas_free(&grid->picture);
    printf("%s: %s\n", path, status == 0 ? "written" : "NOT written");
    return status;
}

void seed_draw_axis(canvas* c, canvas_view view, const sat_result* sat, carom_vec2 origin,
                    double line_width) {
    carom_vec2 u = sat->axis;
    /* the axis line, through origin; points on it are origin + t u for the projection t */
    double base = carom_dot(origin, u);
    carom_vec2 zero = carom_mul_sub(origin, base, u);
    double lo = fmin(sat->a_min, sat->b_min) - 0.6, hi = fmax(sat->a_max, sat->b_max) + 0.6;
    carom_vec2 side = carom_scale(1.5 * line_width, carom_left_perp(u));
    canvas_line(c, view, carom_mul_add(zero, lo, u), carom_mul_add(zero, hi, u), line_width * 0.5,
                0x999999, 1.0);
    canvas_line(c, view, carom_add(carom_mul_add(zero, sat->a_min, u), side),
                carom_add(carom_mul_add(zero, sat->a_max, u), side), line_width * 2.0, SEED_BLUE,
                1.0);
    canvas_line(c, view, carom_sub(carom_mul_add(zero, sat->b_min, u), side),
                carom_sub(carom_mul_add(zero, sat->b_max, u), side), line_width * 2.0, SEED_ORANGE,
                1.0);
    double gap_lo, gap_hi;
    if (sat->b_min >= sat->a_max || (sat->separated && sat->b_min > sat->a_min)) {
        gap_lo = sat->a_max;
        gap_hi = sat->b_min;
    } else if (sat->separated) {
        gap_lo = sat->b_max;
        gap_hi = sat->a_min;
    } else {
        gap_lo = fmax(sat->a_min, sat->b_min);
        gap_hi = fmin(sat->a_max, sat->b_max);
    }
    canvas_line(c, view, carom_mul_add(zero, gap_lo, u), carom_mul_add(zero, gap_hi, u),
                line_width * 2.0, sat->separated ? SEED_GREEN : SEED_RED, 1.0);
}
