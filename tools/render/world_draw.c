/* A carom world in a canvas: see world_draw.h. The engine's debug draw calls back with each
 * shape, already placed and colored; these callbacks fill and outline it. The bounds come from
 * the same callbacks, so they hold exactly what a drawing would show. */
#include "world_draw.h"

#include <math.h>
#include <string.h>

typedef struct draw_context {
    canvas* target;
    canvas_view view;
    const render_style* style;
} draw_context;

static uint32_t darker(uint32_t rgb) {
    return ((rgb >> 1) & 0x7f7f7fu);
}

static uint32_t pick_color(const draw_context* context, uint32_t color, carom_vec2 centroid) {
    const render_style* style = context->style;
    return style->recolor != NULL ? style->recolor(color, centroid, style->user) : color;
}

/* Sensors are see-through by their engine color, whatever recolor makes of it. */
static double fill_alpha(const draw_context* context, uint32_t engine_color) {
    return engine_color == CAROM_COLOR_SENSOR ? context->style->sensor_alpha
                                              : context->style->fill_alpha;
}

static bool is_joint_color(uint32_t color) {
    return color == CAROM_COLOR_JOINT || color == CAROM_COLOR_JOINT_AXIS;
}

static void draw_polygon(const carom_vec2* vertices, int count, uint32_t engine_color, void* user) {
    const draw_context* context = user;
    carom_vec2 centroid = {0.0, 0.0};
    for (int i = 0; i < count; ++i) {
        centroid = carom_add(centroid, vertices[i]);
    }
    centroid = carom_scale(1.0 / count, centroid);
    uint32_t color = pick_color(context, engine_color, centroid);
    if (color == RENDER_SKIP) {
        return;
    }
    canvas_fill_polygon(context->target, context->view, vertices, count, color,
                        fill_alpha(context, engine_color));
    canvas_outline(context->target, context->view, vertices, count,
                   context->style->line_width * 0.5, darker(color));
}

static void draw_circle(carom_vec2 center, double radius, carom_vec2 axis, uint32_t engine_color,
                        void* user) {
    const draw_context* context = user;
    uint32_t color = pick_color(context, engine_color, center);
    if (color == RENDER_SKIP) {
        return;
    }
    double line_width = context->style->line_width;
    double alpha = fill_alpha(context, engine_color);
    /* the rim: a darker disc under the fill (under a see-through sensor, only its ring) */
    if (engine_color != CAROM_COLOR_SENSOR) {
        canvas_fill_circle(context->target, context->view, center, radius, darker(color), 1.0);
    } else {
        canvas_ring(context->target, context->view, center, radius, line_width * 0.5,
                    darker(color));
    }
    canvas_fill_circle(context->target, context->view, center, radius - line_width * 0.5, color,
                       alpha);
    canvas_line(context->target, context->view, center, carom_mul_add(center, radius, axis),
                line_width * 0.5, darker(color), 1.0);
}

static void draw_segment(carom_vec2 p1, carom_vec2 p2, uint32_t engine_color, void* user) {
    const draw_context* context = user;
    uint32_t color = pick_color(context, engine_color, carom_lerp(p1, p2, 0.5));
    if (color == RENDER_SKIP) {
        return;
    }
    double width = context->style->line_width * (is_joint_color(engine_color) ? 0.5 : 1.0);
    canvas_line(context->target, context->view, p1, p2, width, color, 1.0);
    canvas_fill_circle(context->target, context->view, p1, 0.5 * width, color, 1.0);
}

static void draw_point(carom_vec2 point, uint32_t color, void* user) {
    const draw_context* context = user;
    canvas_fill_circle(context->target, context->view, point, context->style->line_width, color,
                       1.0);
}

carom_status render_world(canvas* c, canvas_view view, carom_world_id world,
                          const render_style* style) {
    draw_context context = {c, view, style};
    carom_debug_draw draw;
    memset(&draw, 0, sizeof(draw));
    draw.draw_polygon = draw_polygon;
    draw.draw_circle = draw_circle;
    draw.draw_segment = draw_segment;
    draw.draw_point = draw_point;
    draw.draw_shapes = 1;
    draw.draw_joints = style->joints ? 1 : 0;
    draw.context = &context;
    return carom_world_draw(world, &draw);
}

/* ---- Bounds ------------------------------------------------------------------------------ */

typedef struct bounds_context {
    carom_aabb box;
    bool any;
} bounds_context;

static void grow(bounds_context* bounds, carom_vec2 lower, carom_vec2 upper) {
    if (!bounds->any) {
        bounds->box.lower = lower;
        bounds->box.upper = upper;
        bounds->any = true;
    } else {
        bounds->box.lower = carom_min_v(bounds->box.lower, lower);
        bounds->box.upper = carom_max_v(bounds->box.upper, upper);
    }
}

static void bound_polygon(const carom_vec2* vertices, int count, uint32_t color, void* user) {
    (void)color;
    for (int i = 0; i < count; ++i) {
        grow(user, vertices[i], vertices[i]);
    }
}

static void bound_circle(carom_vec2 center, double radius, carom_vec2 axis, uint32_t color,
                         void* user) {
    (void)axis;
    (void)color;
    grow(user, carom_sub(center, carom_v2(radius, radius)),
         carom_add(center, carom_v2(radius, radius)));
}

static void bound_segment(carom_vec2 p1, carom_vec2 p2, uint32_t color, void* user) {
    (void)color;
    grow(user, carom_min_v(p1, p2), carom_max_v(p1, p2));
}

bool render_world_bounds(carom_world_id world, carom_aabb* bounds) {
    bounds_context context;
    memset(&context, 0, sizeof(context));
    carom_debug_draw draw;
    memset(&draw, 0, sizeof(draw));
    draw.draw_polygon = bound_polygon;
    draw.draw_circle = bound_circle;
    draw.draw_segment = bound_segment;
    draw.draw_shapes = 1;
    draw.context = &context;
    if (carom_world_draw(world, &draw) != CAROM_OK || !context.any) {
        return false;
    }
    *bounds = context.box;
    return true;
}

canvas_view render_fit_view(carom_aabb box, int width, int height, double margin) {
    double room_x = width * (1.0 - 2.0 * margin), room_y = height * (1.0 - 2.0 * margin);
    double size_x = box.upper.x - box.lower.x, size_y = box.upper.y - box.lower.y;
    double scale = 1000.0;
    if (size_x > 0.0 && size_y > 0.0) {
        scale = fmin(room_x / size_x, room_y / size_y);
    } else if (size_x > 0.0) {
        scale = room_x / size_x;
    } else if (size_y > 0.0) {
        scale = room_y / size_y;
    }
    canvas_view view = {carom_lerp(box.lower, box.upper, 0.5), scale};
    return view;
}
