/* Debug draw: the world as lines, polygons, circles and points through the user's callbacks,
 * so any renderer (SDL, a PNG writer, a test) can show it. Shapes go in shape-id order, colored
 * by what their body is doing; joints, contacts and bounding boxes on request.
 *
 * The world is locked while drawing, so a callback cannot create, destroy or step (it gets
 * CAROM_ERROR_WORLD_LOCKED). Even so, each shape and contact is copied before its callbacks run
 * and nothing here keeps a pointer into the world's arrays across a callback: creating a body
 * inside a callback once grew the array the loop was reading. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>

static uint32_t shape_color(const carom_shape* shape, const carom_body* body) {
    if (shape->is_sensor) {
        return CAROM_COLOR_SENSOR;
    }
    switch (body->type) {
    case CAROM_BODY_STATIC:
        return CAROM_COLOR_STATIC;
    case CAROM_BODY_KINEMATIC:
        return CAROM_COLOR_KINEMATIC;
    default:
        return body->asleep ? CAROM_COLOR_SLEEPING : CAROM_COLOR_DYNAMIC;
    }
}

/* The arcs of a rounded outline are drawn as chords of at most this angle (rad): 15 degrees. */
#define ARC_STEP (CAROM_PI / 12.0)

/* A rounded polygon or capsule as its outline: each side moved out by the radius, and between
 * two sides the arc around their shared vertex from one side's normal to the next's. */
static void draw_rounded_outline(const carom_debug_draw* draw, const carom_polygon* polygon,
                                 carom_transform xf, uint32_t color) {
    int count = polygon->count;
    double r = polygon->radius;
    for (int i = 0; i < count; ++i) {
        carom_vec2 v1 = polygon->vertices[i];
        carom_vec2 v2 = polygon->vertices[(i + 1) % count];
        carom_vec2 n = polygon->normals[i];
        draw->draw_segment(carom_transform_point(xf, carom_mul_add(v1, r, n)),
                           carom_transform_point(xf, carom_mul_add(v2, r, n)), color,
                           draw->context);
        carom_vec2 next = polygon->normals[(i + 1) % count];
        double angle = carom_atan2(fabs(carom_cross(n, next)), carom_dot(n, next));
        int steps = (int)ceil(angle / ARC_STEP);
        carom_rot step = carom_make_rot(angle / (steps > 0 ? steps : 1));
        carom_vec2 direction = n;
        for (int k = 0; k < steps; ++k) {
            carom_vec2 turned = k + 1 < steps ? carom_rotate(step, direction) : next;
            draw->draw_segment(carom_transform_point(xf, carom_mul_add(v2, r, direction)),
                               carom_transform_point(xf, carom_mul_add(v2, r, turned)), color,
                               draw->context);
            direction = turned;
        }
    }
}

static void draw_shape(const carom_debug_draw* draw, const carom_shape* shape, carom_transform xf,
                       uint32_t color) {
    if (shape->type != CAROM_SHAPE_CIRCLE && shape->polygon.radius > 0.0) {
        if (draw->draw_segment != NULL) {
            draw_rounded_outline(draw, &shape->polygon, xf, color);
        }
    } else if (shape->type == CAROM_SHAPE_CIRCLE) {
        if (draw->draw_circle != NULL) {
            draw->draw_circle(carom_transform_point(xf, shape->circle.center),
                              shape->circle.radius, carom_rotate(xf.q, carom_v2(1.0, 0.0)), color,
                              draw->context);
        }
    } else if (shape->polygon.count == 2) {
        if (draw->draw_segment != NULL) {
            draw->draw_segment(carom_transform_point(xf, shape->polygon.vertices[0]),
                               carom_transform_point(xf, shape->polygon.vertices[1]), color,
                               draw->context);
        }
    } else if (draw->draw_polygon != NULL) {
        carom_vec2 vertices[CAROM_MAX_POLYGON_VERTICES];
        for (int i = 0; i < shape->polygon.count; ++i) {
            vertices[i] = carom_transform_point(xf, shape->polygon.vertices[i]);
        }
        draw->draw_polygon(vertices, shape->polygon.count, color, draw->context);
    }
}

static void draw_box(const carom_debug_draw* draw, carom_aabb box) {
    if (draw->draw_polygon == NULL) {
        return;
    }
    carom_vec2 corners[4] = {box.lower, {box.upper.x, box.lower.y}, box.upper,
                             {box.lower.x, box.upper.y}};
    draw->draw_polygon(corners, 4, CAROM_COLOR_AABB, draw->context);
}

static void draw_contact(const carom_debug_draw* draw, const carom_contact* contact) {
    for (int i = 0; i < contact->point_count; ++i) {
        carom_vec2 p = contact->points[i].point;
        if (draw->draw_point != NULL) {
            draw->draw_point(p, CAROM_COLOR_CONTACT, draw->context);
        }
        if (draw->draw_segment != NULL) {
            draw->draw_segment(p, carom_mul_add(p, 0.2, contact->normal), CAROM_COLOR_CONTACT,
                               draw->context);
        }
    }
}

static carom_vec2 joint_point(const carom_world* world, const carom_joint* joint, int edge) {
    int body = joint->edges[edge].body;
    carom_vec2 local = edge == 0 ? joint->local_anchor_a : joint->local_anchor_b;
    return body >= 0 ? carom_transform_point(world->bodies[body].transform, local) : local;
}

/* The arm from a body's center of mass to its anchor: which body the anchor belongs to. */
static void draw_arm(const carom_debug_draw* draw, const carom_world* world,
                     const carom_joint* joint, int edge, carom_vec2 anchor) {
    int body = joint->edges[edge].body;
    if (body >= 0 && world->bodies[body].type != CAROM_BODY_STATIC) {
        draw->draw_segment(world->bodies[body].center, anchor, CAROM_COLOR_JOINT, draw->context);
    }
}

/* A slider's axis through anchor A: between its limits when it has them, else 1 m each way. */
static void draw_axis(const carom_debug_draw* draw, const carom_world* world,
                      const carom_joint* joint, carom_vec2 anchor_a, carom_vec2 local_axis,
                      bool limited, double lower, double upper) {
    carom_vec2 axis = carom_rotate(world->bodies[joint->edges[0].body].transform.q, local_axis);
    double from = limited ? lower : -1.0, to = limited ? upper : 1.0;
    draw->draw_segment(carom_mul_add(anchor_a, from, axis), carom_mul_add(anchor_a, to, axis),
                       CAROM_COLOR_JOINT_AXIS, draw->context);
}

static void draw_joint(const carom_debug_draw* draw, const carom_world* world,
                       const carom_joint* joint) {
    carom_vec2 a = joint_point(world, joint, 0);
    carom_vec2 b = joint_point(world, joint, 1);
    if (draw->draw_segment != NULL) {
        draw_arm(draw, world, joint, 0, a);
        draw_arm(draw, world, joint, 1, b);
        if (joint->type == CAROM_JOINT_PRISMATIC) {
            const carom_prismatic_joint* p = &joint->prismatic;
            draw_axis(draw, world, joint, a, p->local_axis_a, p->enable_limit, p->lower_translation,
                      p->upper_translation);
        } else if (joint->type == CAROM_JOINT_WHEEL) {
            const carom_wheel_joint* w = &joint->wheel;
            draw_axis(draw, world, joint, a, w->local_axis_a, w->enable_limit, w->lower_translation,
                      w->upper_translation);
        } else if (joint->type == CAROM_JOINT_DISTANCE || joint->type == CAROM_JOINT_MOUSE ||
                   joint->type == CAROM_JOINT_MOTOR) {
            draw->draw_segment(a, b, CAROM_COLOR_JOINT, draw->context);
        }
    }
    if (draw->draw_point != NULL) {
        draw->draw_point(a, CAROM_COLOR_JOINT, draw->context);
        if (a.x != b.x || a.y != b.y) {
            draw->draw_point(b, CAROM_COLOR_JOINT, draw->context);
        }
    }
}

carom_status carom_world_draw(carom_world_id id, const carom_debug_draw* draw) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "draw the world");
    if (status == CAROM_OK && draw == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "debug draw is NULL");
    }
    if (status != CAROM_OK) {
        return status;
    }
    carom_lock_world(world, "inside a debug draw callback; do it after carom_world_draw returns");
    for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
        if (world->shapes[i].id < 0) {
            continue;
        }
        carom_shape shape = world->shapes[i];
        const carom_body* body = &world->bodies[shape.body];
        uint32_t color = shape_color(&shape, body);
        carom_transform xf = body->transform;
        if (draw->draw_shapes) {
            draw_shape(draw, &shape, xf, color);
        }
        if (draw->draw_aabbs) {
            draw_box(draw, shape.aabb);
        }
    }
    for (int i = 0; draw->draw_joints && i < (int)arrlen(world->joints); ++i) {
        if (world->joints[i].id >= 0) {
            carom_joint joint = world->joints[i];
            draw_joint(draw, world, &joint);
        }
    }
    for (int i = 0; draw->draw_contacts && i < (int)arrlen(world->contacts); ++i) {
        if (world->contacts[i].id >= 0 && !world->contacts[i].is_sensor) {
            carom_contact contact = world->contacts[i];
            draw_contact(draw, &contact);
        }
    }
    carom_unlock_world(world);
    return CAROM_OK;
}
