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
