/* Shared by the seed-scenario demos: a separating-axis test written out plainly for the
 * pictures (the engine's own is carom_collide_polygons), panel layout and labels. */
#ifndef SEEDS_SEED_H
#define SEEDS_SEED_H

#include "canvas.h"
#include "world_draw.h"

#include <carom/carom.h>

/* The separating-axis test over the edge normals of two vertex loops (world frame, either
 * winding). For convex polygons it is exact; for a concave one it sees only its convex hull. */
typedef struct sat_result {
    int separated;   /* 1: some axis separates them */
    carom_vec2 axis; /* the separating axis with the widest gap, or the axis of least
                        penetration (the MTD direction), pointing from A towards B */
    double distance; /* the gap along it (> 0) or minus the penetration depth (<= 0), m */
    /* projections of A and B on the axis */
    double a_min, a_max, b_min, b_max;
} sat_result;

sat_result sat_test(const carom_vec2* a, int a_count, const carom_vec2* b, int b_count);

/* The world points of a polygon placed by a transform. */
void seed_place(const carom_polygon* polygon, carom_transform xf, carom_vec2* out);

/* A grid of panels, each drawn on its own canvas (so drawing is clipped to it) and then
 * copied into the picture with a caption and a thin frame. */
typedef struct seed_grid {
    canvas picture;
    int columns, rows;
    int supersample;
} seed_grid;

seed_grid seed_grid_make(int panel_width, int panel_height, int columns, int rows,
                         int supersample);
/* A blank panel; draw on it through a view centred on `center` at `scale` px/m (already
 * multiplied by the supersampling), then hand it to seed_grid_put. */
canvas seed_panel(const seed_grid* grid);
canvas_view seed_view(const seed_grid* grid, carom_vec2 center, double pixels_per_metre);
void seed_grid_put(seed_grid* grid, canvas* panel, int column, int row, const char* caption);
/* Write the picture (averaged down) and free it. Returns 0 on success. */
int seed_grid_write(seed_grid* grid, const char* path);

/* Draw the axis of a SAT result as a line through `origin` with both shapes' projections on
 * it (A blue, B orange) and the gap (green) or overlap (red) between them. */
void seed_draw_axis(canvas* c, canvas_view view, const sat_result* sat, carom_vec2 origin,
                    double line_width);

#define SEED_BLUE 0x3f7fd9u
#define SEED_ORANGE 0xf0953au
#define SEED_GREEN 0x3cb44bu
#define SEED_RED 0xe0302au
#define SEED_INK 0x222222u
#define SEED_PAPER 0xf7f5efu

#endif
