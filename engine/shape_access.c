/* Shapes after creation (issue 16): the filter changed, the geometry read back.
 *
 * A new filter takes effect at the next step: the shape's contacts are kept or dropped by the
 * new rule now (a dropped touching contact reports its end), and its proxy is marked moved so
 * that the next step's broad phase looks again for the pairs the new filter allows. */
#include "core.h"

#include "ds.h"
#include "world.h"

/* Whether the contact's pair still passes the filters. */
static bool pair_still_collides(const carom_world* world, const carom_contact* contact) {
    const carom_shape* a = &world->shapes[contact->shape_a];
    const carom_shape* b = &world->shapes[contact->shape_b];
    return carom_filters_collide(a->filter, b->filter);
}

carom_status carom_shape_set_filter(carom_shape_id id, carom_filter filter) {
    carom_world* world = NULL;
    carom_shape* shape = carom_get_shape_checked(id, &world, "set a shape's filter");
    if (shape == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set a shape's filter");
    if (status != CAROM_OK) {
        return status;
    }
    shape->filter = filter;
    world->scene_revision += 1;
    carom_body* body = &world->bodies[shape->body];
    int contact_count = carom_collect_body_contacts(world, body);
    for (int i = 0; i < contact_count; ++i) {
        const carom_contact* contact = &world->contacts[world->body_contacts[i]];
        bool mine = contact->shape_a == shape->id || contact->shape_b == shape->id;
        if (mine && !pair_still_collides(world, contact)) {
            /* what rested on the dropped pair must fall */
            carom_wake_body(world, &world->bodies[contact->edges[0].body]);
            carom_wake_body(world, &world->bodies[contact->edges[1].body]);
            carom_destroy_contact(world, contact->id);
        }
    }
    carom_broad_phase_set_filter(&world->broad_phase, shape->id, filter);
    carom_wake_body(world, body);
    return CAROM_OK;
}

/* The shape's geometry if it has the type asked for; else CAROM_ERROR_OUT_OF_RANGE naming the
 * type it has. */
static const carom_shape* shape_of_type(carom_shape_id id, carom_shape_type type, const void* out,
                                        const char* what) {
    const carom_shape* shape = carom_get_shape_checked(id, NULL, what);
    if (shape == NULL) {
        return NULL;
    }
    if (out == NULL) {
        carom_fail(CAROM_ERROR_NULL_ARGUMENT, "%s: the output pointer is NULL", what);
        return NULL;
    }
    bool segment_like = type == CAROM_SHAPE_SEGMENT && shape->type == CAROM_SHAPE_CHAIN_SEGMENT;
    if (shape->type != type && !segment_like) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s: shape %d is of type %d, not %d", what,
                   shape->id, (int)shape->type, (int)type);
        return NULL;
    }
    return shape;
}

carom_status carom_shape_get_circle(carom_shape_id id, carom_circle* out) {
    const carom_shape* shape = shape_of_type(id, CAROM_SHAPE_CIRCLE, out, "carom_shape_get_circle");
    if (shape == NULL) {
        return carom_last_status();
    }
    *out = shape->circle;
    return CAROM_OK;
}

carom_status carom_shape_get_polygon(carom_shape_id id, carom_polygon* out) {
    const carom_shape* shape =
        shape_of_type(id, CAROM_SHAPE_POLYGON, out, "carom_shape_get_polygon");
    if (shape == NULL) {
        return carom_last_status();
    }
    *out = shape->polygon;
    return CAROM_OK;
}

carom_status carom_shape_get_segment(carom_shape_id id, carom_segment* out) {
    const carom_shape* shape =
        shape_of_type(id, CAROM_SHAPE_SEGMENT, out, "carom_shape_get_segment");
    if (shape == NULL) {
        return carom_last_status();
    }
    *out = shape->segment;
    return CAROM_OK;
}

carom_status carom_shape_get_chain_segment(carom_shape_id id, carom_chain_segment* out) {
    const carom_shape* shape =
        shape_of_type(id, CAROM_SHAPE_CHAIN_SEGMENT, out, "carom_shape_get_chain_segment");
    if (shape == NULL) {
        return carom_last_status();
    }
    *out = shape->chain;
    return CAROM_OK;
}

carom_status carom_shape_get_capsule(carom_shape_id id, carom_capsule* out) {
    const carom_shape* shape =
        shape_of_type(id, CAROM_SHAPE_CAPSULE, out, "carom_shape_get_capsule");
    if (shape == NULL) {
        return carom_last_status();
    }
    /* kept as the two-vertex polygon the contact tests take: its vertices are the centres */
    out->center1 = shape->polygon.vertices[0];
    out->center2 = shape->polygon.vertices[1];
    out->radius = shape->polygon.radius;
    return CAROM_OK;
}
