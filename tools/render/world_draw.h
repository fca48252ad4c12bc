/* A carom world drawn into a canvas through the engine's debug draw (carom_world_draw): the one
 * way the demos and `carom render` draw bodies, so that a scene looks the same in both.
 *
 * Shapes are filled in the engine's colors for what their body is doing (CAROM_COLOR_STATIC,
 * _KINEMATIC, _DYNAMIC, _SLEEPING; sensors in CAROM_COLOR_SENSOR, see-through) and outlined in a
 * darker shade; a circle also shows its radius along the body's x axis, so its rotation can be
 * seen; segments and chain links are lines; joints are their anchors and the arms from the
 * bodies' centers of mass to them. */
#ifndef CAROM_RENDER_WORLD_DRAW_H
#define CAROM_RENDER_WORLD_DRAW_H

#include "canvas.h"

#include <carom/carom.h>

#include <stdbool.h>
#include <stdint.h>

/* A recolor callback's answer for "do not draw this shape". */
#define RENDER_SKIP 0xffffffffu

typedef struct render_style {
    double line_width;   /* m: segments and chains are this wide; outlines, radius lines and
                            joints half as wide; joint anchors have this radius */
    double fill_alpha;   /* 0 to 1: how much a shape's fill covers what is below it */
    double sensor_alpha; /* 0 to 1: the same for sensors, usually see-through */
    bool joints;         /* draw the joints */
    /* Optional: the color to draw a shape in, given its engine color and the world-space
     * centroid of the polygon, circle or segment (RENDER_SKIP: do not draw it); lets a demo
     * color its cars. NULL: the engine's colors. */
    uint32_t (*recolor)(uint32_t color, carom_vec2 centroid, void* user);
    void* user;
} render_style;

/* Draw every shape (in shape-id order) and, if asked, every joint of the world over what the
 * canvas holds. Returns carom_world_draw's status (the world id must be valid and the world
 * not locked). */
carom_status render_world(canvas* c, canvas_view view, carom_world_id world,
                          const render_style* style);

/* The smallest box holding every shape of the world as carom_world_draw gives them (circles
 * whole, polygons and segments by their vertices). False when the world has no shape. */
bool render_world_bounds(carom_world_id world, carom_aabb* bounds);

/* The view that shows the box whole and centred in a canvas of that size, leaving `margin`
 * (a fraction of the canvas, 0 to 0.5) free on every side. A box of no width or height is
 * shown at the scale of its other side; a point at 1 pixel per millimetre. */
canvas_view render_fit_view(carom_aabb box, int width, int height, double margin);

#endif
