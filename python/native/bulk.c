/* Bulk reads for the Python package: every body's state, many rays, in one call each. */
#include "carompy.h"

carom_status carompy_get_body_states(const carom_body_id* ids, int count, double* position,
                                     double* rotation, double* angle, double* linear_velocity,
                                     double* angular_velocity, int* failed_index) {
    *failed_index = -1;
    for (int i = 0; i < count; ++i) {
        /* The getters return zeros for a stale id; resolve it once first so that a stale id is
         * an error rather than a body at the origin. */
        if (!carom_body_is_valid(ids[i])) {
            *failed_index = i;
            /* carom_body_is_valid records nothing: ask a getter for the engine's message. */
            carom_body_get_position(ids[i]);
            return carom_last_status();
        }
        if (position != NULL || rotation != NULL) {
            carom_transform xf = carom_body_get_transform(ids[i]);
            if (position != NULL) {
                position[2 * i] = xf.p.x;
                position[2 * i + 1] = xf.p.y;
            }
            if (rotation != NULL) {
                rotation[2 * i] = xf.q.c;
                rotation[2 * i + 1] = xf.q.s;
            }
        }
        if (angle != NULL) {
            angle[i] = carom_body_get_angle(ids[i]);
        }
        if (linear_velocity != NULL) {
            carom_vec2 v = carom_body_get_linear_velocity(ids[i]);
            linear_velocity[2 * i] = v.x;
            linear_velocity[2 * i + 1] = v.y;
        }
        if (angular_velocity != NULL) {
            angular_velocity[i] = carom_body_get_angular_velocity(ids[i]);
        }
    }
    return CAROM_OK;
}

carom_status carompy_cast_rays_closest(carom_world_id world, const double* origins,
                                       const double* translations, int count,
                                       carom_filter filter, carom_ray_result* results,
                                       int* failed_index) {
    *failed_index = -1;
    for (int i = 0; i < count; ++i) {
        /* carom_world_cast_ray_closest reports a refusal only through the last error. */
        carom_clear_last_error();
        results[i] = carom_world_cast_ray_closest(
            world, carom_v2(origins[2 * i], origins[2 * i + 1]),
            carom_v2(translations[2 * i], translations[2 * i + 1]), filter);
        if (carom_last_status() != CAROM_OK) {
            *failed_index = i;
            return carom_last_status();
        }
    }
    return CAROM_OK;
}

double carompy_collect_hit(carom_shape_id shape, carom_vec2 point, carom_vec2 normal,
                           double fraction, void* context) {
    carompy_hit_collector* collector = context;
    if (collector->count < collector->capacity) {
        carom_ray_result* r = &collector->results[collector->count];
        r->shape = shape;
        r->point = point;
        r->normal = normal;
        r->fraction = fraction;
        r->hit = 1;
    }
    ++collector->count;
    return collector->all ? 1.0 : 0.0; /* 1: go on unchanged; 0: stop at this (closest) hit */
}

carom_status carompy_cast_ray_all(carom_world_id world, carom_vec2 origin, carom_vec2 translation,
                                  carom_filter filter, carom_ray_result* results, int capacity,
                                  int* count) {
    carompy_hit_collector collector = {results, capacity, 0, 1};
    carom_status status = carom_world_cast_ray(world, origin, translation, filter,
                                               carompy_collect_hit, &collector);
    *count = collector.count;
    return status;
}

void carompy_shape_bodies(const carom_shape_id* shapes, int count, carom_body_id* bodies) {
    for (int i = 0; i < count; ++i) {
        /* Checked first so that a destroyed shape (an end event's) records no error. */
        bodies[i] = carom_shape_is_valid(shapes[i]) ? carom_shape_get_body(shapes[i])
                                                    : carom_null_body_id;
    }
}

void carompy_get_body_types(const carom_body_id* ids, int count, int* types) {
    for (int i = 0; i < count; ++i) {
        types[i] = carom_body_is_valid(ids[i]) ? (int)carom_body_get_type(ids[i]) : -1;
    }
}

carom_status carompy_set_body_velocities(const carom_body_id* ids, int count,
                                         const double* linear, const double* angular,
                                         int* failed_index) {
    *failed_index = -1;
    for (int i = 0; i < count; ++i) {
        if (carom_body_get_type(ids[i]) == CAROM_BODY_STATIC &&
            (linear == NULL || (linear[2 * i] == 0.0 && linear[2 * i + 1] == 0.0)) &&
            (angular == NULL || angular[i] == 0.0)) {
            continue; /* a static body cannot move: zeros are what it has */
        }
        carom_status status = CAROM_OK;
        if (linear != NULL) {
            status = carom_body_set_linear_velocity(
                ids[i], carom_v2(linear[2 * i], linear[2 * i + 1]));
        }
        if (status == CAROM_OK && angular != NULL) {
            status = carom_body_set_angular_velocity(ids[i], angular[i]);
        }
        if (status != CAROM_OK) {
            *failed_index = i;
            return status;
        }
    }
    return CAROM_OK;
}
