/* The sizes of the structs the Python package mirrors with ctypes (python/carom/_native.py).
 * A mirror that drifted from the header would read and write the wrong bytes; the package
 * compares every size at import and refuses to load on a difference. */
#include "carompy.h"

#include <string.h>

#define CAROMPY_SIZE(type) {#type, sizeof(type)}

static const struct {
    const char* name;
    size_t size;
} struct_sizes[] = {
    CAROMPY_SIZE(carom_vec2),
    CAROMPY_SIZE(carom_rot),
    CAROMPY_SIZE(carom_transform),
    CAROMPY_SIZE(carom_aabb),
    CAROMPY_SIZE(carom_world_id),
    CAROMPY_SIZE(carom_body_id),
    CAROMPY_SIZE(carom_shape_id),
    CAROMPY_SIZE(carom_joint_id),
    CAROMPY_SIZE(carom_vehicle_id),
    CAROMPY_SIZE(carom_filter),
    CAROMPY_SIZE(carom_world_def),
    CAROMPY_SIZE(carom_body_def),
    CAROMPY_SIZE(carom_shape_def),
    CAROMPY_SIZE(carom_circle),
    CAROMPY_SIZE(carom_capsule),
    CAROMPY_SIZE(carom_polygon),
    CAROMPY_SIZE(carom_segment),
    CAROMPY_SIZE(carom_world_counters),
    CAROMPY_SIZE(carom_contact_begin_event),
    CAROMPY_SIZE(carom_contact_end_event),
    CAROMPY_SIZE(carom_contact_hit_event),
    CAROMPY_SIZE(carom_contact_events),
    CAROMPY_SIZE(carom_sensor_event),
    CAROMPY_SIZE(carom_sensor_events),
    CAROMPY_SIZE(carom_ray_result),
    CAROMPY_SIZE(carom_revolute_joint_def),
    CAROMPY_SIZE(carom_prismatic_joint_def),
    CAROMPY_SIZE(carom_distance_joint_def),
    CAROMPY_SIZE(carom_weld_joint_def),
    CAROMPY_SIZE(carom_wheel_joint_def),
    CAROMPY_SIZE(carom_motor_joint_def),
    CAROMPY_SIZE(carom_mouse_joint_def),
    CAROMPY_SIZE(carom_joint_break_event),
    CAROMPY_SIZE(carom_joint_events),
    CAROMPY_SIZE(carom_wheel_def),
    CAROMPY_SIZE(carom_vehicle_def),
    CAROMPY_SIZE(carom_vehicle_input),
    CAROMPY_SIZE(carom_wheel_state),
    CAROMPY_SIZE(carom_vehicle_state),
};

size_t carompy_sizeof(const char* type_name) {
    for (size_t i = 0; i < sizeof(struct_sizes) / sizeof(struct_sizes[0]); ++i) {
        if (strcmp(struct_sizes[i].name, type_name) == 0) {
            return struct_sizes[i].size;
        }
    }
    return 0;
}

/* ---- Fields by name: the defs Python fills and the records it reads ----
 *
 * Python does not mirror these structs field by field: it asks for each field's offset here,
 * where the compiler knows it, starts every def from the engine's own default constructor, and
 * sets only the fields named in the keyword arguments. A field added to a header (another
 * world setting, a shape property) therefore needs nothing here to keep working; it keeps its
 * default until listed. A field renamed or removed fails to compile here, not at run time. */

#define CAROMPY_FIELD(type, field, kind) {#type, #field, offsetof(type, field), kind}
#define CAROMPY_JOINT_COMMON(type)                                                                \
    CAROMPY_FIELD(type, collide_connected, 'i'), CAROMPY_FIELD(type, break_force, 'd'),          \
        CAROMPY_FIELD(type, break_torque, 'd')

/* kind: 'd' double, 'i' int, 'v' carom_vec2, 'f' carom_filter, 's' carom_shape_id,
 * 'j' carom_joint_id. */
static const struct {
    const char* type;
    const char* name;
    size_t offset;
    char kind;
} fields[] = {
    CAROMPY_FIELD(carom_world_def, gravity, 'v'),
    CAROMPY_FIELD(carom_world_def, substeps, 'i'),
    CAROMPY_FIELD(carom_world_def, cell_size, 'd'),
    CAROMPY_FIELD(carom_world_def, restitution_threshold, 'd'),
    CAROMPY_FIELD(carom_world_def, contact_hertz, 'd'),
    CAROMPY_FIELD(carom_world_def, contact_damping_ratio, 'd'),
    CAROMPY_FIELD(carom_world_def, contact_push_max_velocity, 'd'),
    CAROMPY_FIELD(carom_world_def, contact_slop, 'd'),
    CAROMPY_FIELD(carom_world_def, enable_continuous, 'i'),
    CAROMPY_FIELD(carom_world_def, enable_sleep, 'i'),
    CAROMPY_FIELD(carom_world_def, sleep_linear_threshold, 'd'),
    CAROMPY_FIELD(carom_world_def, sleep_angular_threshold, 'd'),
    CAROMPY_FIELD(carom_world_def, time_to_sleep, 'd'),
    CAROMPY_FIELD(carom_world_def, speculative_distance, 'd'),
    CAROMPY_FIELD(carom_world_def, contact_recycle_distance, 'd'),
    CAROMPY_FIELD(carom_world_def, joint_hertz, 'd'),
    CAROMPY_FIELD(carom_world_def, joint_damping_ratio, 'd'),
    CAROMPY_FIELD(carom_world_def, max_contacts, 'i'),

    CAROMPY_FIELD(carom_body_def, type, 'i'),
    CAROMPY_FIELD(carom_body_def, position, 'v'),
    CAROMPY_FIELD(carom_body_def, angle, 'd'),
    CAROMPY_FIELD(carom_body_def, linear_velocity, 'v'),
    CAROMPY_FIELD(carom_body_def, angular_velocity, 'd'),
    CAROMPY_FIELD(carom_body_def, linear_damping, 'd'),
    CAROMPY_FIELD(carom_body_def, angular_damping, 'd'),
    CAROMPY_FIELD(carom_body_def, gravity_scale, 'd'),
    CAROMPY_FIELD(carom_body_def, bullet, 'i'),
    CAROMPY_FIELD(carom_body_def, enable_sleep, 'i'),
    CAROMPY_FIELD(carom_body_def, awake, 'i'),

    CAROMPY_FIELD(carom_shape_def, density, 'd'),
    CAROMPY_FIELD(carom_shape_def, friction, 'd'),
    CAROMPY_FIELD(carom_shape_def, restitution, 'd'),
    CAROMPY_FIELD(carom_shape_def, filter, 'f'),
    CAROMPY_FIELD(carom_shape_def, is_sensor, 'i'),
    CAROMPY_FIELD(carom_shape_def, enable_hit_events, 'i'),
    CAROMPY_FIELD(carom_shape_def, enable_contact_events, 'i'),
    CAROMPY_FIELD(carom_shape_def, hit_speed_threshold, 'd'),
    CAROMPY_FIELD(carom_shape_def, surface_grip, 'd'),
    CAROMPY_FIELD(carom_shape_def, one_sided, 'i'),

    CAROMPY_FIELD(carom_revolute_joint_def, anchor, 'v'),
    CAROMPY_FIELD(carom_revolute_joint_def, enable_limit, 'i'),
    CAROMPY_FIELD(carom_revolute_joint_def, lower_angle, 'd'),
    CAROMPY_FIELD(carom_revolute_joint_def, upper_angle, 'd'),
    CAROMPY_FIELD(carom_revolute_joint_def, enable_motor, 'i'),
    CAROMPY_FIELD(carom_revolute_joint_def, motor_speed, 'd'),
    CAROMPY_FIELD(carom_revolute_joint_def, max_motor_torque, 'd'),
    CAROMPY_FIELD(carom_revolute_joint_def, enable_spring, 'i'),
    CAROMPY_FIELD(carom_revolute_joint_def, hertz, 'd'),
    CAROMPY_FIELD(carom_revolute_joint_def, damping_ratio, 'd'),
    CAROMPY_JOINT_COMMON(carom_revolute_joint_def),

    CAROMPY_FIELD(carom_prismatic_joint_def, anchor, 'v'),
    CAROMPY_FIELD(carom_prismatic_joint_def, axis, 'v'),
    CAROMPY_FIELD(carom_prismatic_joint_def, enable_limit, 'i'),
    CAROMPY_FIELD(carom_prismatic_joint_def, lower_translation, 'd'),
    CAROMPY_FIELD(carom_prismatic_joint_def, upper_translation, 'd'),
    CAROMPY_FIELD(carom_prismatic_joint_def, enable_motor, 'i'),
    CAROMPY_FIELD(carom_prismatic_joint_def, motor_speed, 'd'),
    CAROMPY_FIELD(carom_prismatic_joint_def, max_motor_force, 'd'),
    CAROMPY_FIELD(carom_prismatic_joint_def, enable_spring, 'i'),
    CAROMPY_FIELD(carom_prismatic_joint_def, hertz, 'd'),
    CAROMPY_FIELD(carom_prismatic_joint_def, damping_ratio, 'd'),
    CAROMPY_JOINT_COMMON(carom_prismatic_joint_def),

    CAROMPY_FIELD(carom_distance_joint_def, anchor_a, 'v'),
    CAROMPY_FIELD(carom_distance_joint_def, anchor_b, 'v'),
    CAROMPY_FIELD(carom_distance_joint_def, length, 'd'),
    CAROMPY_FIELD(carom_distance_joint_def, enable_spring, 'i'),
    CAROMPY_FIELD(carom_distance_joint_def, hertz, 'd'),
    CAROMPY_FIELD(carom_distance_joint_def, damping_ratio, 'd'),
    CAROMPY_FIELD(carom_distance_joint_def, enable_limit, 'i'),
    CAROMPY_FIELD(carom_distance_joint_def, min_length, 'd'),
    CAROMPY_FIELD(carom_distance_joint_def, max_length, 'd'),
    CAROMPY_JOINT_COMMON(carom_distance_joint_def),

    CAROMPY_FIELD(carom_weld_joint_def, anchor, 'v'),
    CAROMPY_FIELD(carom_weld_joint_def, linear_hertz, 'd'),
    CAROMPY_FIELD(carom_weld_joint_def, linear_damping_ratio, 'd'),
    CAROMPY_FIELD(carom_weld_joint_def, angular_hertz, 'd'),
    CAROMPY_FIELD(carom_weld_joint_def, angular_damping_ratio, 'd'),
    CAROMPY_JOINT_COMMON(carom_weld_joint_def),

    CAROMPY_FIELD(carom_wheel_joint_def, anchor, 'v'),
    CAROMPY_FIELD(carom_wheel_joint_def, axis, 'v'),
    CAROMPY_FIELD(carom_wheel_joint_def, enable_spring, 'i'),
    CAROMPY_FIELD(carom_wheel_joint_def, hertz, 'd'),
    CAROMPY_FIELD(carom_wheel_joint_def, damping_ratio, 'd'),
    CAROMPY_FIELD(carom_wheel_joint_def, enable_limit, 'i'),
    CAROMPY_FIELD(carom_wheel_joint_def, lower_translation, 'd'),
    CAROMPY_FIELD(carom_wheel_joint_def, upper_translation, 'd'),
    CAROMPY_FIELD(carom_wheel_joint_def, enable_motor, 'i'),
    CAROMPY_FIELD(carom_wheel_joint_def, motor_speed, 'd'),
    CAROMPY_FIELD(carom_wheel_joint_def, max_motor_torque, 'd'),
    CAROMPY_JOINT_COMMON(carom_wheel_joint_def),

    CAROMPY_FIELD(carom_motor_joint_def, linear_offset, 'v'),
    CAROMPY_FIELD(carom_motor_joint_def, angular_offset, 'd'),
    CAROMPY_FIELD(carom_motor_joint_def, max_force, 'd'),
    CAROMPY_FIELD(carom_motor_joint_def, max_torque, 'd'),
    CAROMPY_FIELD(carom_motor_joint_def, correction_factor, 'd'),
    CAROMPY_JOINT_COMMON(carom_motor_joint_def),

    CAROMPY_FIELD(carom_mouse_joint_def, target, 'v'),
    CAROMPY_FIELD(carom_mouse_joint_def, hertz, 'd'),
    CAROMPY_FIELD(carom_mouse_joint_def, damping_ratio, 'd'),
    CAROMPY_FIELD(carom_mouse_joint_def, max_force, 'd'),
    CAROMPY_JOINT_COMMON(carom_mouse_joint_def),

    CAROMPY_FIELD(carom_vehicle_def, gravity, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, grip, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, peak_slip_angle, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, slide_grip_ratio, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, max_drive_force, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, max_power, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, max_brake_force, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, handbrake_force, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, handbrake_grip_factor, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, max_steer_angle, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, steer_reduction_speed, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, rolling_resistance, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, drag_coefficient, 'd'),
    CAROMPY_FIELD(carom_vehicle_def, surface_filter, 'f'),

    CAROMPY_FIELD(carom_contact_begin_event, shape_a, 's'),
    CAROMPY_FIELD(carom_contact_begin_event, shape_b, 's'),
    CAROMPY_FIELD(carom_contact_end_event, shape_a, 's'),
    CAROMPY_FIELD(carom_contact_end_event, shape_b, 's'),
    CAROMPY_FIELD(carom_contact_hit_event, shape_a, 's'),
    CAROMPY_FIELD(carom_contact_hit_event, shape_b, 's'),
    CAROMPY_FIELD(carom_contact_hit_event, point, 'v'),
    CAROMPY_FIELD(carom_contact_hit_event, normal, 'v'),
    CAROMPY_FIELD(carom_contact_hit_event, approach_speed, 'd'),
    CAROMPY_FIELD(carom_sensor_event, sensor, 's'),
    CAROMPY_FIELD(carom_sensor_event, visitor, 's'),
    CAROMPY_FIELD(carom_joint_break_event, joint, 'j'),
    CAROMPY_FIELD(carom_joint_break_event, type, 'i'),
    CAROMPY_FIELD(carom_joint_break_event, force, 'v'),
    CAROMPY_FIELD(carom_joint_break_event, torque, 'd'),
    CAROMPY_FIELD(carom_ray_result, shape, 's'),
    CAROMPY_FIELD(carom_ray_result, point, 'v'),
    CAROMPY_FIELD(carom_ray_result, normal, 'v'),
    CAROMPY_FIELD(carom_ray_result, fraction, 'd'),
    CAROMPY_FIELD(carom_ray_result, hit, 'i'),
};

int carompy_field_count(void) { return (int)(sizeof(fields) / sizeof(fields[0])); }

const char* carompy_field(int index, const char** name, size_t* offset, char* kind) {
    *name = fields[index].name;
    *offset = fields[index].offset;
    *kind = fields[index].kind;
    return fields[index].type;
}

#define CAROMPY_DEFAULT(type, constructor)                                                        \
    if (strcmp(type_name, #type) == 0) {                                                          \
        type value = constructor();                                                               \
        memcpy(out, &value, sizeof(value));                                                       \
        return 1;                                                                                 \
    }

int carompy_default_def(const char* type_name, void* out) {
    CAROMPY_DEFAULT(carom_world_def, carom_default_world_def)
    CAROMPY_DEFAULT(carom_body_def, carom_default_body_def)
    CAROMPY_DEFAULT(carom_shape_def, carom_default_shape_def)
    CAROMPY_DEFAULT(carom_revolute_joint_def, carom_default_revolute_joint_def)
    CAROMPY_DEFAULT(carom_prismatic_joint_def, carom_default_prismatic_joint_def)
    CAROMPY_DEFAULT(carom_distance_joint_def, carom_default_distance_joint_def)
    CAROMPY_DEFAULT(carom_weld_joint_def, carom_default_weld_joint_def)
    CAROMPY_DEFAULT(carom_wheel_joint_def, carom_default_wheel_joint_def)
    CAROMPY_DEFAULT(carom_motor_joint_def, carom_default_motor_joint_def)
    CAROMPY_DEFAULT(carom_mouse_joint_def, carom_default_mouse_joint_def)
    CAROMPY_DEFAULT(carom_vehicle_def, carom_default_vehicle_def)
    return 0;
}
