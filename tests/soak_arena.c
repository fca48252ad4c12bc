/* The arena soak's scenes (soak_arena.h). */
#include "soak_arena.h"

#include <math.h>

/* A 64-bit linear congruential generator: the same scene from the same seed on every machine
 * that rounds exp, log, sin and cos the same way (the soak is a test, not a determinism check). */
typedef struct soak_random {
    uint64_t state;
} soak_random;

static double uniform(soak_random* r, double low, double high) {
    r->state = r->state * 6364136223846793005ULL + 1442695040888963407ULL;
    double unit = (double)(r->state >> 11) * (1.0 / 9007199254740992.0);
    return low + (high - low) * unit;
}

static double log_uniform(soak_random* r, double low, double high) {
    return exp(uniform(r, log(low), log(high)));
}

static void build_walls(soak_scene* scene) {
    carom_body_def def = carom_default_body_def();
    carom_body_id walls = carom_create_body(scene->world, &def);
    carom_shape_def shape = carom_default_shape_def();
    const double h = SOAK_HALF_SIZE;
    if (scene->wall_kind == 0) {
        const carom_vec2 corners[4] = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
        for (int i = 0; i < 4; ++i) {
            carom_segment segment = {corners[i], corners[(i + 1) % 4]};
            carom_create_segment_shape(walls, &shape, &segment);
        }
    } else if (scene->wall_kind == 1) {
        const carom_vec2 corners[4] = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
        carom_create_chain(walls, &shape, corners, 4, 1, NULL);
    } else {
        carom_create_box_shape(walls, &shape, h + 2.0, 1.0, carom_v2(0.0, -h - 1.0), 0.0);
        carom_create_box_shape(walls, &shape, h + 2.0, 1.0, carom_v2(0.0, h + 1.0), 0.0);
        carom_create_box_shape(walls, &shape, 1.0, h + 2.0, carom_v2(-h - 1.0, 0.0), 0.0);
        carom_create_box_shape(walls, &shape, 1.0, h + 2.0, carom_v2(h + 1.0, 0.0), 0.0);
    }
}

static void add_shape(soak_random* r, carom_body_id body, double size) {
    carom_shape_def shape = carom_default_shape_def();
    shape.density = log_uniform(r, 0.01, 1000.0);
    shape.restitution = uniform(r, 0.0, 1.0);
    shape.friction = uniform(r, 0.0, 1.0);
    int kind = (int)uniform(r, 0.0, 3.0);
    if (kind == 1) {
        carom_create_box_shape(body, &shape, 0.5 * size, size * uniform(r, 0.1, 0.5),
                               carom_v2(0.0, 0.0), 0.0);
        return;
    }
    if (kind == 2) {
        carom_vec2 points[8];
        int count = 3 + (int)uniform(r, 0.0, 6.0);
        for (int k = 0; k < count; ++k) {
            double angle = 2.0 * 3.14159265358979 * k / count + uniform(r, 0.0, 0.5);
            double radius = size * uniform(r, 0.25, 0.5);
            points[k] = carom_v2(radius * cos(angle), radius * sin(angle));
        }
        carom_polygon polygon;
        if (carom_make_polygon(points, count, &polygon) == CAROM_OK) {
            carom_create_polygon_shape(body, &shape, &polygon);
            return;
        }
    }
    carom_circle circle = {{0.0, 0.0}, 0.5 * size};
    carom_create_circle_shape(body, &shape, &circle);
}

void soak_build(uint64_t seed, soak_scene* scene) {
    soak_random r = {0x9e3779b97f4a7c15ULL * (seed + 1)};
    carom_world_def def = carom_default_world_def();
    scene->substeps = def.substeps = 1 + (int)uniform(&r, 0.0, 8.0);
    def.gravity = uniform(&r, 0.0, 1.0) < 0.5 ? carom_v2(0.0, -9.81) : carom_v2(0.0, 0.0);
    scene->world = carom_create_world(&def);
    scene->wall_kind = (int)uniform(&r, 0.0, 3.0);
    build_walls(scene);
    scene->count = 20 + (int)uniform(&r, 0.0, 40.0);
    scene->has_kinematic = 0;
    const double room = SOAK_HALF_SIZE - 6.0;
    for (int i = 0; i < scene->count; ++i) {
        carom_body_def body = carom_default_body_def();
        body.type = uniform(&r, 0.0, 1.0) < 0.06 ? CAROM_BODY_KINEMATIC : CAROM_BODY_DYNAMIC;
        double size = log_uniform(&r, 0.05, 5.0);
        body.position = carom_v2(uniform(&r, -room, room), uniform(&r, -room, room));
        body.angle = uniform(&r, -3.0, 3.0);
        double speed = body.type == CAROM_BODY_KINEMATIC ? 0.0 : uniform(&r, 0.0, 200.0);
        double heading = uniform(&r, 0.0, 6.283);
        body.linear_velocity = carom_v2(speed * cos(heading), speed * sin(heading));
        body.angular_velocity = uniform(&r, -20.0, 20.0);
        body.bullet = uniform(&r, 0.0, 1.0) < 0.15;
        scene->has_kinematic |= body.type == CAROM_BODY_KINEMATIC;
        scene->bodies[i] = carom_create_body(scene->world, &body);
        scene->size[i] = size;
        add_shape(&r, scene->bodies[i], size);
    }
}

static double total_energy(const soak_scene* scene) {
    double gravity = carom_world_get_gravity(scene->world).y;
    double energy = 0.0;
    for (int i = 0; i < scene->count; ++i) {
        carom_body_id body = scene->bodies[i];
        if (carom_body_get_type(body) == CAROM_BODY_DYNAMIC) {
            double height = carom_body_get_world_center(body).y + SOAK_HALF_SIZE;
            energy += carom_body_get_kinetic_energy(body) -
                      carom_body_get_mass(body) * gravity * height;
        }
    }
    return energy;
}

soak_result soak_run(soak_scene* scene, int steps) {
    soak_result result = {0, -1, -1, 0, 0.0, 0.0};
    int gone[SOAK_MAX_BODIES] = {0};
    double first_energy = -1.0;
    for (int step = 0; step < steps && !result.non_finite; ++step) {
        if (carom_world_step(scene->world, 1.0 / 60.0) != CAROM_OK) {
            result.non_finite = 1;
            break;
        }
        double energy = total_energy(scene);
        if (first_energy < 0.0) {
            first_energy = energy;
        }
        if (first_energy > 0.0 && energy / first_energy > result.energy_ratio) {
            result.energy_ratio = energy / first_energy;
        }
        for (int i = 0; i < scene->count; ++i) {
            carom_body_id body = scene->bodies[i];
            if (carom_body_get_type(body) != CAROM_BODY_DYNAMIC || gone[i]) {
                continue;
            }
            carom_vec2 p = carom_body_get_world_center(body);
            carom_vec2 v = carom_body_get_linear_velocity(body);
            if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(v.x) || !isfinite(v.y) ||
                !isfinite(carom_body_get_angular_velocity(body))) {
                result.non_finite = 1;
                break;
            }
            result.max_speed = fmax(result.max_speed, hypot(v.x, v.y));
            double limit = SOAK_HALF_SIZE + 0.5 * scene->size[i];
            if (fabs(p.x) > limit || fabs(p.y) > limit) {
                gone[i] = 1;
                result.lost += 1;
                if (result.first_lost_step < 0) {
                    result.first_lost_step = step;
                    result.first_lost_body = i;
                }
            }
        }
    }
    return result;
}
