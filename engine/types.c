/* Default constructors for the definition structs. Each sets the cookie that creation checks,
 * so a def filled by hand (where zero would silently mean "no friction", "no gravity") is
 * refused instead. */
#include "core.h"

#include "carom/types.h"

carom_world_def carom_default_world_def(void) {
    carom_world_def def;
    def.gravity = carom_v2(0.0, -10.0);
    def.substeps = 4;
    def.cell_size = 0.0;
    def.restitution_threshold = 1.0;
    def.contact_hertz = 35.0;
    def.contact_damping_ratio = 10.0;
    def.contact_push_max_velocity = 3.0;
    def.contact_slop = 0.0;
    def.speculative_distance = 0.02;
    def.enable_continuous = 1;
    def.enable_sleep = 1;
    def.sleep_linear_threshold = 0.05;
    def.sleep_angular_threshold = 0.0;
    def.time_to_sleep = 0.5;
    def.contact_recycle_distance = 0.01;
    def.joint_hertz = 60.0;
    def.joint_damping_ratio = 2.0;
    def.max_contacts = CAROM_DEFAULT_MAX_CONTACTS;
    def.worker_count = 1;
    def.enqueue_task = NULL;
    def.finish_task = NULL;
    def.user_task_context = NULL;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_body_def carom_default_body_def(void) {
    carom_body_def def;
    def.type = CAROM_BODY_STATIC;
    def.position = carom_v2(0.0, 0.0);
    def.angle = 0.0;
    def.linear_velocity = carom_v2(0.0, 0.0);
    def.angular_velocity = 0.0;
    def.linear_damping = 0.0;
    def.angular_damping = 0.0;
    def.gravity_scale = 1.0;
    def.bullet = 0;
    def.enable_sleep = 1;
    def.awake = 1;
    def.user_data = NULL;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_filter carom_default_filter(void) {
    carom_filter filter = {1u, UINT64_MAX, 0};
    return filter;
}

carom_shape_def carom_default_shape_def(void) {
    carom_shape_def def;
    def.density = 1.0;
    def.friction = 0.6;
    def.restitution = 0.0;
    def.filter = carom_default_filter();
    def.is_sensor = 0;
    def.one_sided = 0;
    def.enable_hit_events = 0;
    def.enable_contact_events = 1;
    def.hit_speed_threshold = 1.0;
    def.surface_grip = 1.0;
    def.user_data = NULL;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}
