/* Shapes: geometry and material attached to a body. */
#ifndef CAROM_SHAPE_H
#define CAROM_SHAPE_H

#include "carom/carom.h"
#include "sat.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct carom_world carom_world;

typedef struct carom_shape {
    /* What the narrow phase reads for every contact comes first: the first cache line is all
     * a kept (recycled) manifold needs; a new one reads the box and a circle's geometry from
     * the second. */
    int id; /* own index, or -1 when the slot is free */
    int body;
    int next_shape; /* next in the body's list, -1 at the end */
    carom_shape_type type;
    bool is_sensor;
    bool enable_hit_events;
    bool enable_contact_events;
    double friction, restitution;
    double extent; /* farthest distance of the shape from its body's center of mass (m) */
    /* A polygon that is exactly carom_make_box's box around the body origin (cars, crates):
     * corners (-x, -y), (x, -y), (x, y), (-x, y) in that order. Its half extents (x, y) give its
     * world box without placing the corners, and its contacts with other such boxes by two axes
     * each (carom_collide_boxes). (0, 0) for every other shape. */
    carom_vec2 box_half_extents;
    carom_aabb aabb; /* tight world box as of the last step */
    carom_circle circle; /* CAROM_SHAPE_CIRCLE */
    double hit_speed_threshold;
    carom_polygon polygon; /* CAROM_SHAPE_POLYGON (radius: rounded), the two-vertex form of a
                              segment, and a capsule's: its centres and radius */
    carom_segment segment; /* CAROM_SHAPE_SEGMENT and CAROM_SHAPE_CHAIN_SEGMENT */
    carom_chain_segment chain; /* CAROM_SHAPE_CHAIN_SEGMENT */
    uint32_t generation;
    double surface_grip; /* sensors: tyre grip multiplier for vehicles */
    double density;
    carom_filter filter;
    void* user_data;
} carom_shape;

/* A shape's event flags in one byte, as snapshots keep them: a shape at the defaults (no hit
 * events, contact events on) writes 0, as before contact events could be switched off. */
enum {
    CAROM_SHAPE_HIT_EVENTS = 1,       /* enable_hit_events */
    CAROM_SHAPE_NO_CONTACT_EVENTS = 2 /* not enable_contact_events */
};

static inline uint8_t carom_shape_event_bits(const carom_shape* shape) {
    return (uint8_t)((shape->enable_hit_events ? CAROM_SHAPE_HIT_EVENTS : 0) |
                     (shape->enable_contact_events ? 0 : CAROM_SHAPE_NO_CONTACT_EVENTS));
}

/* Whether a shape's contacts report their touching: a sensor's always; any other's if it asks
 * for contact events, or for hit events (every hit then has its begin event). */
static inline bool carom_shape_reports_touch(const carom_shape* shape) {
    return shape->is_sensor || shape->enable_contact_events || shape->enable_hit_events;
}

/* Whether a contact of the two shapes reports its touching (carom_contact.reports_touch). */
static inline bool carom_shapes_report_touch(const carom_shape* a, const carom_shape* b) {
    return carom_shape_reports_touch(a) || carom_shape_reports_touch(b);
}

carom_shape* carom_get_shape_checked(carom_shape_id id, carom_world** world_out, const char* what);
carom_shape_id carom_make_shape_id(const carom_world* world, const carom_shape* shape);
/* The world box of the shape placed by xf, from its geometry whatever it is. */
carom_aabb carom_shape_compute_general_aabb(const carom_shape* shape, carom_transform xf);

/* The world box of a box around the body origin. Its corners' x are +-a +- b with a = c x and
 * b = s y rounded (c, s the rotation, x, y the half extents), so the largest is |a| + |b|:
 * computed in that order, the box has the same bits as carom_compute_polygon_aabb gives from the
 * four placed corners, for a handful of operations instead of four transforms. Likewise y. */
static inline carom_aabb carom_centred_box_aabb(carom_vec2 half, carom_transform xf) {
    carom_vec2 reach = carom_box_reach(half, xf.q);
    carom_aabb box = {{xf.p.x - reach.x, xf.p.y - reach.y}, {xf.p.x + reach.x, xf.p.y + reach.y}};
    return box;
}

/* The world box of the shape placed by xf; inline, as every moving shape needs it every step. */
static inline carom_aabb carom_shape_compute_aabb(const carom_shape* shape, carom_transform xf) {
    if (shape->box_half_extents.x > 0.0) {
        return carom_centred_box_aabb(shape->box_half_extents, xf);
    }
    return carom_shape_compute_general_aabb(shape, xf);
}
/* Set shape->box_half_extents from its type and polygon; call whenever the geometry is set. */
void carom_shape_find_box(carom_shape* shape);
carom_mass_data carom_shape_compute_mass(const carom_shape* shape);
/* Half the shape's thinnest width (m): its radius, or the smallest distance from a polygon's
 * centroid to its faces (plus its rounding radius; a capsule's is its radius); infinity for
 * segments, which have none. */
double carom_shape_compute_thickness(const carom_shape* shape);
/* Farthest distance of the shape from a body-frame point (m). */
double carom_shape_compute_extent(const carom_shape* shape, carom_vec2 local_point);
/* Whether the placed shape contains a world point (segments and chains contain none). */
bool carom_shape_contains_point(const carom_world* world, const carom_shape* shape,
                                carom_vec2 point);
/* Whether two shapes' filters let them collide (see carom_filter). */
bool carom_filters_collide(carom_filter a, carom_filter b);
void carom_destroy_shape_internal(carom_world* world, carom_shape* shape, bool update_body_mass);

#endif
