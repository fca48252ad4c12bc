/* What a run writes: state file, trace and hash (see state.h). */
#include "state.h"

#include "format.h"

#include <inttypes.h>
#include <string.h>

static void write_number(FILE* file, double value) {
    char text[FORMAT_DOUBLE_SIZE];
    format_double(value, text);
    fputs(text, file);
}

static void write_vec2(FILE* file, carom_vec2 value) {
    fputc('[', file);
    write_number(file, value.x);
    fputs(", ", file);
    write_number(file, value.y);
    fputc(']', file);
}

/* `"key": value` with the separator that comes before it. */
static void write_key(FILE* file, const char* separator, const char* key) {
    fputs(separator, file);
    write_json_string(file, key);
    fputs(": ", file);
}

static void write_points(FILE* file, const carom_vec2* points, int count) {
    fputc('[', file);
    for (int i = 0; i < count; ++i) {
        fputs(i > 0 ? ", " : "", file);
        write_vec2(file, points[i]);
    }
    fputc(']', file);
}

/* A box's or polygon's "radius", written only when it is rounded, as a scene says it. */
static void write_rounding(FILE* file, const scene_shape* shape) {
    if (shape->radius > 0.0) {
        write_key(file, ", ", "radius");
        write_number(file, shape->radius);
    }
}

static void write_geometry(FILE* file, const scene_shape* shape) {
    static const char* const type_names[] = {"circle",  "box",   "polygon",
                                             "segment", "chain", "capsule"};
    fputs("{\"type\": ", file);
    write_json_string(file, type_names[shape->type]);
    switch (shape->type) {
    case SCENE_SHAPE_CIRCLE:
        write_key(file, ", ", "radius");
        write_number(file, shape->radius);
        write_key(file, ", ", "center");
        write_vec2(file, shape->center);
        break;
    case SCENE_SHAPE_BOX:
        write_key(file, ", ", "half_extents");
        write_vec2(file, shape->half_extents);
        write_key(file, ", ", "center");
        write_vec2(file, shape->center);
        write_key(file, ", ", "angle");
        write_number(file, shape->angle);
        write_rounding(file, shape);
        break;
    case SCENE_SHAPE_POLYGON:
        write_key(file, ", ", "vertices");
        write_points(file, shape->points, shape->point_count);
        write_rounding(file, shape);
        if (shape->decompose) { /* the outline, split again the same way when read back */
            fputs(", \"decompose\": true", file);
        }
        break;
    case SCENE_SHAPE_CAPSULE:
        write_key(file, ", ", "center1");
        write_vec2(file, shape->center1);
        write_key(file, ", ", "center2");
        write_vec2(file, shape->center2);
        write_key(file, ", ", "radius");
        write_number(file, shape->radius);
        break;
    case SCENE_SHAPE_SEGMENT:
    case SCENE_SHAPE_CHAIN:
        write_key(file, ", ", "points");
        write_points(file, shape->points, shape->point_count);
        if (shape->type == SCENE_SHAPE_CHAIN) {
            fputs(shape->loop ? ", \"loop\": true" : ", \"loop\": false", file);
        }
        break;
    }
}

/* Hit events, a sensor's surface grip, a one-sided chain, contact events off: written only when
 * they are not the engine's defaults, so the state files of scenes without them read as they
 * always did. */
static void write_shape_events_and_surface(FILE* file, const scene_shape* shape) {
    if (shape->hit_events) {
        fputs(", \"hit_events\": true", file);
        write_key(file, ", ", "hit_speed_threshold");
        write_number(file, shape->hit_speed_threshold);
    }
    if (shape->sensor && shape->surface_grip != carom_default_shape_def().surface_grip) {
        write_key(file, ", ", "surface_grip");
        write_number(file, shape->surface_grip);
    }
    if (shape->type == SCENE_SHAPE_CHAIN && shape->one_sided) {
        fputs(", \"one_sided\": true", file);
    }
    if (!shape->contact_events) {
        fputs(", \"contact_events\": false", file);
    }
}

/* Material and filter. A mask of every bit has no JSON number (2^64 - 1 is not a double), so
 * it is written the way a scene says it: by leaving "mask" out. */
static void write_shape(FILE* file, const scene_shape* shape) {
    write_geometry(file, shape);
    write_key(file, ", ", "density");
    write_number(file, shape->density);
    write_key(file, ", ", "friction");
    write_number(file, shape->friction);
    write_key(file, ", ", "restitution");
    write_number(file, shape->restitution);
    fputs(shape->sensor ? ", \"sensor\": true" : ", \"sensor\": false", file);
    fprintf(file, ", \"category\": %" PRIu64, shape->filter.category);
    if (!shape->mask_is_all_bits) {
        fprintf(file, ", \"mask\": %" PRIu64, shape->filter.mask);
    }
    fprintf(file, ", \"group\": %" PRId32, shape->filter.group);
    write_shape_events_and_surface(file, shape);
    fputc('}', file);
}

static void write_body(FILE* file, const scene_body* body, carom_body_id id) {
    static const char* const type_names[] = {"static", "kinematic", "dynamic"};
    fputs("    {", file);
    if (body->name != NULL) {
        write_key(file, "", "name");
        write_json_string(file, body->name);
        fputs(", ", file);
    }
    write_key(file, "", "type");
    write_json_string(file, type_names[body->type]);
    write_key(file, ",\n     ", "position");
    write_vec2(file, carom_body_get_position(id));
    write_key(file, ", ", "angle");
    write_number(file, carom_body_get_angle(id));
    carom_rot rotation = carom_body_get_rotation(id);
    write_key(file, ", ", "rotation");
    write_vec2(file, carom_v2(rotation.c, rotation.s));
    write_key(file, ",\n     ", "linear_velocity");
    write_vec2(file, carom_body_get_linear_velocity(id));
    write_key(file, ", ", "angular_velocity");
    write_number(file, carom_body_get_angular_velocity(id));
    write_key(file, ",\n     ", "linear_damping");
    write_number(file, body->linear_damping);
    write_key(file, ", ", "angular_damping");
    write_number(file, body->angular_damping);
    fputs(body->bullet ? ", \"bullet\": true" : ", \"bullet\": false", file);
    if (body->gravity_scale != 1.0) { /* written only when given, so older files read the same */
        write_key(file, ", ", "gravity_scale");
        write_number(file, body->gravity_scale);
    }
    if (body->fixed_rotation) {
        fputs(", \"fixed_rotation\": true", file);
    }
    if (!body->enabled) {
        fputs(", \"enabled\": false", file);
    }
    if (body->type == CAROM_BODY_DYNAMIC && !carom_body_is_awake(id) &&
        carom_body_is_enabled(id)) { /* a disabled body is neither awake nor asleep */
        fputs(", \"awake\": false", file); /* asleep at the end of the run */
    }
    fputs(",\n     \"shapes\": [", file);
    for (int i = 0; i < body->shape_count; ++i) {
        fputs(i > 0 ? ",\n       " : "\n       ", file);
        write_shape(file, &body->shapes[i]);
    }
    fputs("]}", file);
}

/* The engine's settings a scene may give, written when they are not the engine's defaults. */
static void write_world_settings(FILE* file, const scene_def* scene) {
    carom_world_def engine = carom_default_world_def();
    if (scene->sleep != (engine.enable_sleep != 0)) {
        fputs(scene->sleep ? ", \"sleep\": true" : ", \"sleep\": false", file);
    }
    if (scene->continuous != (engine.enable_continuous != 0)) {
        fputs(scene->continuous ? ", \"continuous\": true" : ", \"continuous\": false", file);
    }
    const struct {
        const char* key;
        double value, engine_default;
    } numbers[] = {
        {"contact_hertz", scene->contact_hertz, engine.contact_hertz},
        {"contact_damping_ratio", scene->contact_damping_ratio, engine.contact_damping_ratio},
        {"contact_push_max_velocity", scene->contact_push_max_velocity,
         engine.contact_push_max_velocity},
        {"contact_recycle_distance", scene->contact_recycle_distance,
         engine.contact_recycle_distance},
        {"joint_hertz", scene->joint_hertz, engine.joint_hertz},
        {"joint_damping_ratio", scene->joint_damping_ratio, engine.joint_damping_ratio},
    };
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        if (numbers[i].value != numbers[i].engine_default) {
            write_key(file, ", ", numbers[i].key);
            write_number(file, numbers[i].value);
        }
    }
    if (scene->max_contacts != engine.max_contacts) {
        fprintf(file, ", \"max_contacts\": %d", scene->max_contacts);
    }
}

/* ---- Joints: the file's settings, and the geometry the engine keeps ----------------------- */

/* Keys of a joint record: the first after a line break, the rest after ", ". */
typedef struct record {
    FILE* file;
    const char* separator;
} record;

static void record_key(record* r, const char* key) {
    write_key(r->file, r->separator, key);
    r->separator = ", ";
}

static void record_number(record* r, const char* key, double value) {
    record_key(r, key);
    write_number(r->file, value);
}

static void record_vec2(record* r, const char* key, carom_vec2 value) {
    record_key(r, key);
    write_vec2(r->file, value);
}

/* "motor" and "spring", each when the joint has one. */
static void write_drives(record* r, const scene_joint* joint) {
    if (joint->has_motor) {
        record_key(r, "motor");
        fputs("{\"speed\": ", r->file);
        write_number(r->file, joint->motor_speed);
        write_key(r->file, ", ", joint->type == CAROM_JOINT_PRISMATIC ? "max_force" : "max_torque");
        write_number(r->file, joint->max_motor);
        fputc('}', r->file);
    }
    if (joint->has_spring) {
        record_key(r, "spring");
        fputs("{\"hertz\": ", r->file);
        write_number(r->file, joint->hertz);
        write_key(r->file, ", ", "damping_ratio");
        write_number(r->file, joint->damping_ratio);
        fputc('}', r->file);
    }
}

/* The world-frame keys, made from the engine's frame and the bodies' poses now; the kind's
 * settings as the scene gave them. */
static void write_joint_geometry(record* r, const scene_joint* joint, const carom_joint_frame* f,
                                 carom_transform a, carom_transform b) {
    switch (joint->type) {
    case CAROM_JOINT_DISTANCE:
        record_vec2(r, "anchor_a", carom_transform_point(a, f->local_anchor_a));
        record_vec2(r, "anchor_b", carom_transform_point(b, f->local_anchor_b));
        record_number(r, "length", f->length);
        if (joint->has_limit) {
            record_number(r, "min_length", joint->min_length);
            record_number(r, "max_length", joint->max_length);
        }
        break;
    case CAROM_JOINT_MOTOR:
        record_vec2(r, "linear_offset", joint->linear_offset);
        record_number(r, "angular_offset", joint->angular_offset);
        record_number(r, "max_force", joint->max_force);
        record_number(r, "max_torque", joint->max_torque);
        record_number(r, "correction_factor", joint->correction_factor);
        break;
    default:
        record_vec2(r, "anchor", carom_transform_point(a, f->local_anchor_a));
        if (joint->type == CAROM_JOINT_PRISMATIC || joint->type == CAROM_JOINT_WHEEL) {
            record_vec2(r, "axis", carom_rotate(a.q, f->local_axis_a));
        }
        if (joint->has_limit) {
            record_vec2(r, "limit", carom_v2(joint->lower, joint->upper));
        }
        if (joint->type == CAROM_JOINT_WELD) {
            record_number(r, "linear_hertz", joint->linear_hertz);
            record_number(r, "linear_damping_ratio", joint->linear_damping_ratio);
            record_number(r, "angular_hertz", joint->angular_hertz);
            record_number(r, "angular_damping_ratio", joint->angular_damping_ratio);
        }
        break;
    }
    if (joint->type != CAROM_JOINT_MOTOR && joint->type != CAROM_JOINT_WELD) {
        write_drives(r, joint);
    }
}

static void write_joint(FILE* file, const scene_def* scene, const scene_joint* joint,
                        carom_joint_id id, const carom_body_id* body_ids) {
    static const char* const type_names[] = {"revolute", "prismatic", "distance", "weld",
                                             "wheel",    "motor",     "mouse"};
    carom_joint_frame frame;
    carom_joint_get_frame(id, &frame);
    fputs("    {\"type\": ", file);
    write_json_string(file, type_names[joint->type]);
    if (joint->name != NULL) {
        write_key(file, ", ", "name");
        write_json_string(file, joint->name);
    }
    write_key(file, ", ", "body_a");
    write_json_string(file, scene->bodies[joint->body_a].name);
    write_key(file, ", ", "body_b");
    write_json_string(file, scene->bodies[joint->body_b].name);
    record r = {file, ",\n     "};
    write_joint_geometry(&r, joint, &frame, carom_body_get_transform(body_ids[joint->body_a]),
                         carom_body_get_transform(body_ids[joint->body_b]));
    fputs(joint->collide_connected ? ",\n     \"collide_connected\": true"
                                   : ",\n     \"collide_connected\": false",
          file);
    write_key(file, ", ", "break_force");
    write_number(file, joint->break_force);
    if (joint->type != CAROM_JOINT_DISTANCE) {
        write_key(file, ", ", "break_torque");
        write_number(file, joint->break_torque);
    }
    fputs(",\n     \"frame\": {\"local_anchor_a\": ", file);
    write_vec2(file, frame.local_anchor_a);
    write_key(file, ", ", "local_anchor_b");
    write_vec2(file, frame.local_anchor_b);
    write_key(file, ", ", "reference_rotation");
    write_vec2(file, carom_v2(frame.reference_rotation.c, frame.reference_rotation.s));
    write_key(file, ", ", "local_axis_a");
    write_vec2(file, frame.local_axis_a);
    write_key(file, ", ", "length");
    write_number(file, frame.length);
    fputs("}}", file);
}

/* ---- Vehicles: the def as the scene gave it, the input in force, the script still to come ---- */

static void write_input(FILE* file, const carom_vehicle_input* input) {
    write_key(file, "", "throttle");
    write_number(file, input->throttle);
    write_key(file, ", ", "brake");
    write_number(file, input->brake);
    write_key(file, ", ", "steer");
    write_number(file, input->steer);
    fputs(input->handbrake ? ", \"handbrake\": true}" : ", \"handbrake\": false}", file);
}

static void write_wheels(FILE* file, const carom_vehicle_def* def) {
    write_key(file, ",\n     ", "wheels");
    fputc('[', file);
    for (int i = 0; i < def->wheel_count; ++i) {
        const carom_wheel_def* wheel = &def->wheels[i];
        fputs(i > 0 ? ", {\"position\": " : "{\"position\": ", file);
        write_vec2(file, wheel->position);
        fputs(wheel->steered ? ", \"steered\": true" : ", \"steered\": false", file);
        fputs(wheel->driven ? ", \"driven\": true" : ", \"driven\": false", file);
        fputs(wheel->handbrake ? ", \"handbrake\": true}" : ", \"handbrake\": false}", file);
    }
    fputc(']', file);
}

static void write_vehicle_numbers(FILE* file, const carom_vehicle_def* def) {
    const struct {
        const char* key;
        double value;
        bool new_line; /* grouped: tyres, engine and brakes, handbrake and steering, losses */
    } numbers[] = {
        {"gravity", def->gravity, true},
        {"grip", def->grip, false},
        {"peak_slip_angle", def->peak_slip_angle, false},
        {"slide_grip_ratio", def->slide_grip_ratio, false},
        {"max_drive_force", def->max_drive_force, true},
        {"max_power", def->max_power, false},
        {"max_brake_force", def->max_brake_force, false},
        {"handbrake_force", def->handbrake_force, true},
        {"handbrake_grip_factor", def->handbrake_grip_factor, false},
        {"max_steer_angle", def->max_steer_angle, false},
        {"steer_reduction_speed", def->steer_reduction_speed, false},
        {"rolling_resistance", def->rolling_resistance, true},
        {"drag_coefficient", def->drag_coefficient, false},
    };
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        write_key(file, numbers[i].new_line ? ",\n     " : ", ", numbers[i].key);
        write_number(file, numbers[i].value);
    }
}

/* The script from step `step` on, renumbered from 0: the state file is a scene whose step 0 is
 * this step, so an entry at `step` itself takes over before its first step, as it would have
 * in the run going on. Entries before it are spent; their last one is the input in force. */
static void write_controls(FILE* file, const scene_vehicle* vehicle, int64_t step) {
    write_key(file, ",\n     ", "controls");
    fputc('[', file);
    int written = 0;
    for (int i = 0; i < vehicle->control_count; ++i) {
        const scene_control* control = &vehicle->controls[i];
        if (control->step < step) {
            continue;
        }
        fprintf(file, "%s{\"step\": %" PRId64 ", ", written > 0 ? ",\n       " : "\n       ",
                control->step - step);
        write_input(file, &control->input);
        written += 1;
    }
    fputc(']', file);
}

static void write_vehicle(FILE* file, const scene_def* scene, const scene_vehicle* vehicle,
                          carom_vehicle_id id, int64_t step) {
    const carom_vehicle_def* def = &vehicle->def;
    fputs("    {\"body\": ", file);
    write_json_string(file, scene->bodies[vehicle->body].name);
    write_wheels(file, def);
    write_vehicle_numbers(file, def);
    fprintf(file, ",\n     \"surface_filter\": {\"category\": %" PRIu64,
            def->surface_filter.category);
    if (!vehicle->surface_mask_is_all_bits) {
        fprintf(file, ", \"mask\": %" PRIu64, def->surface_filter.mask);
    }
    fprintf(file, ", \"group\": %" PRId32 "}", def->surface_filter.group);
    carom_vehicle_input input = carom_vehicle_get_input(id);
    write_key(file, ",\n     ", "input");
    fputc('{', file);
    write_input(file, &input);
    write_controls(file, vehicle, step);
    fputc('}', file);
}

static void write_vehicles(FILE* file, const scene_def* scene, int64_t step) {
    for (int i = 0; i < scene->vehicle_count; ++i) {
        fputs(i == 0 ? ",\n  \"vehicles\": [\n" : ",\n", file);
        write_vehicle(file, scene, &scene->vehicles[i], scene->vehicle_ids[i], step);
    }
    if (scene->vehicle_count > 0) {
        fputs("\n  ]", file);
    }
}

void state_write(FILE* file, const scene_def* scene, carom_world_id world,
                 const carom_body_id* body_ids, double dt, int64_t step) {
    fputs("{\n  \"version\": 1,\n  \"world\": {\"gravity\": ", file);
    write_vec2(file, carom_world_get_gravity(world));
    write_key(file, ", ", "dt");
    write_number(file, dt);
    fprintf(file, ", \"substeps\": %d", carom_world_get_substeps(world));
    /* Before the first step the engine has not chosen a cell size yet: leave it to choose. */
    double cell_size = carom_world_get_cell_size(world);
    if (cell_size > 0.0) {
        write_key(file, ", ", "cell_size");
        write_number(file, cell_size);
    }
    write_world_settings(file, scene);
    fputs("},\n  \"bodies\": [", file);
    for (int i = 0; i < scene->body_count; ++i) {
        fputs(i > 0 ? ",\n" : "\n", file);
        write_body(file, &scene->bodies[i], body_ids[i]);
    }
    fputs(scene->body_count > 0 ? "\n  ]" : "]", file);
    /* the joints that still exist: one that broke during the run is gone from the world */
    int written = 0;
    for (int i = 0; i < scene->joint_count; ++i) {
        if (carom_joint_is_valid(scene->joint_ids[i])) {
            fputs(written == 0 ? ",\n  \"joints\": [\n" : ",\n", file);
            write_joint(file, scene, &scene->joints[i], scene->joint_ids[i], body_ids);
            written += 1;
        }
    }
    if (written > 0) {
        fputs("\n  ]", file);
    }
    write_vehicles(file, scene, step);
    fputs("\n}\n", file);
}

void trace_write_header(FILE* file) {
    fputs("step,time,name,x,y,angle,vx,vy,w\n", file);
}

void trace_write_step(FILE* file, const scene_def* scene, const carom_body_id* body_ids,
                      int64_t step, double time) {
    char time_text[FORMAT_DOUBLE_SIZE];
    format_double(time, time_text);
    for (int i = 0; i < scene->body_count; ++i) {
        if (scene->bodies[i].type != CAROM_BODY_DYNAMIC) {
            continue;
        }
        char label[24];
        carom_body_id id = body_ids[i];
        carom_vec2 position = carom_body_get_position(id);
        carom_vec2 velocity = carom_body_get_linear_velocity(id);
        double values[6] = {position.x, position.y, carom_body_get_angle(id),
                            velocity.x, velocity.y, carom_body_get_angular_velocity(id)};
        fprintf(file, "%" PRId64 ",%s,", step, time_text);
        write_csv_field(file, scene_body_label(scene, i, label, sizeof(label)));
        for (int v = 0; v < 6; ++v) {
            fputc(',', file);
            write_number(file, values[v]);
        }
        fputc('\n', file);
    }
}
