/* The racing demo's race: see race.h. */
#include "race.h"

#include "ai.h"

#include <math.h>
#include <string.h>

static const char* const car_names[RACE_CARS] = {"Rosso", "Azzurro", "Verde",  "Giallo", "Arancio",
                                                 "Viola", "Ciano",   "Bianco", "Camion"};
static const uint32_t car_colors[RACE_CARS] = {0xe0302a, 0x2f6fe0, 0x2fb84a, 0xf2d02e, 0xf08a24,
                                               0x9a4fd6, 0x35c8d0, 0xf2f2f2, 0x8c6a48};

#define CAR_HALF_LENGTH 2.2
#define CAR_HALF_WIDTH 0.9
#define CAR_MASS 1200.0
#define CRASH_SPEED 4.0 /* m/s: hits at least this fast count, and throw sparks */

/* The truck: longer, wider, heavier and stronger than a car, with its wheels further apart. */
#define TRUCK_HALF_LENGTH 2.6
#define TRUCK_HALF_WIDTH 1.1
#define TRUCK_MASS 2600.0
#define TRUCK_FRONT_AXLE 1.7
#define TRUCK_REAR_AXLE (-1.5)
#define TRUCK_PACE 0.75 /* of the speed profile, which is a car's: the rig corners gently */

/* The trailer, and the hitch on the truck's centreline 0.4 m behind its tail, 0.5 m ahead of
 * the trailer's nose (body frames, m). */
#define TRAILER_HALF_LENGTH 3.0
#define TRAILER_HALF_WIDTH 1.1
#define TRAILER_MASS 900.0
#define TRAILER_AXLE (-1.6)
#define HITCH_ON_TRUCK (-(TRUCK_HALF_LENGTH + 0.4))
#define HITCH_ON_TRAILER (TRAILER_HALF_LENGTH + 0.5)

/* The gate: its hinge 0.5 m inside the outer wall, this far before the start line, its arm
 * reaching 4 m into the track (across the 3 m verge and 1 m into the road). */
#define GATE_BEFORE_LINE 110.0
#define GATE_LENGTH 4.0
#define GATE_HALF_WIDTH 0.15
#define GATE_MASS 60.0
#define GATE_HERTZ 0.6      /* its spring back to closed */
#define GATE_DAMPING_RATIO 0.6

static carom_vehicle_def car_vehicle_def(void) {
    carom_vehicle_def def = carom_default_vehicle_def();
    def.surface_filter.category = CAT_SURFACE_READER;
    def.surface_filter.mask = CAT_SURFACE;
    return def;
}

/* The truck's wheels in the order of a car's (front steered, then rear driven), so the AI's
 * traction control reads its rear wheels where it reads a car's; it pulls the trailer too. */
static carom_vehicle_def truck_vehicle_def(void) {
    carom_vehicle_def def = car_vehicle_def();
    def.wheels[0].position = carom_v2(TRUCK_FRONT_AXLE, 0.95);
    def.wheels[1].position = carom_v2(TRUCK_FRONT_AXLE, -0.95);
    def.wheels[2].position = carom_v2(TRUCK_REAR_AXLE, 0.95);
    def.wheels[3].position = carom_v2(TRUCK_REAR_AXLE, -0.95);
    def.max_drive_force = 11000.0;
    def.max_power = 220000.0;
    def.max_brake_force = 40000.0;
    return def;
}

/* One axle of free wheels: no steering, no drive, no handbrake; only its tyres' grip. */
static carom_vehicle_def trailer_vehicle_def(void) {
    carom_vehicle_def def = car_vehicle_def();
    def.wheel_count = 2;
    def.wheels[0] = (carom_wheel_def){carom_v2(TRAILER_AXLE, 0.95), 0, 0, 0};
    def.wheels[1] = (carom_wheel_def){carom_v2(TRAILER_AXLE, -0.95), 0, 0, 0};
    def.max_brake_force = 15000.0;
    return def;
}

/* What every racer's and the trailer's box is made of: cars see each other's rays, enter the
 * checkpoints and report hits. */
static carom_shape_def vehicle_shape_def(double mass, double half_length, double half_width) {
    carom_shape_def shape = carom_default_shape_def();
    shape.density = mass / (4.0 * half_length * half_width);
    shape.friction = 0.3;
    shape.restitution = 0.25;
    shape.filter.category = CAT_CAR;
    shape.filter.mask = CAT_WALL | CAT_CAR | CAT_CHECKPOINT | CAT_CAR_RAY;
    shape.enable_hit_events = 1;
    shape.hit_speed_threshold = CRASH_SPEED;
    return shape;
}

/* A dynamic body at `position` heading along `heading` (unit). */
static carom_body_id create_vehicle_body(race* r, carom_vec2 position, carom_vec2 heading) {
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = position;
    body_def.angle = carom_atan2(heading.y, heading.x);
    body_def.bullet = 1;
    body_def.angular_damping = 0.5;
    return carom_create_body(r->world, &body_def);
}

/* Racer i on the grid: the cars in two columns, staggered, behind the start line; the truck
 * last, in the middle of the road. */
static int place_car(race* r, int i) {
    const track* t = &r->track;
    int is_truck = i == RACE_TRUCK;
    double behind = is_truck ? 12.0 + 9.0 * i : 10.0 + 9.0 * i;
    int sample = track_wrap(t, t->start_sample - (int)(behind / t->spacing + 0.5));
    double side = is_truck ? 0.0 : (i % 2 == 0) ? 3.0 : -3.0;
    race_car* car = &r->cars[i];
    car->body = create_vehicle_body(r, carom_mul_add(t->center[sample], side, t->normal[sample]),
                                    t->tangent[sample]);
    double mass = is_truck ? TRUCK_MASS : CAR_MASS;
    car->half_length = is_truck ? TRUCK_HALF_LENGTH : CAR_HALF_LENGTH;
    double half_width = is_truck ? TRUCK_HALF_WIDTH : CAR_HALF_WIDTH;
    carom_shape_def shape = vehicle_shape_def(mass, car->half_length, half_width);
    car->shape = carom_create_box_shape(car->body, &shape, car->half_length, half_width,
                                        carom_v2(0.0, 0.0), 0.0);
    carom_vehicle_def def = is_truck ? truck_vehicle_def() : car_vehicle_def();
    car->vehicle = carom_create_vehicle(car->body, &def);
    if (!carom_vehicle_is_valid(car->vehicle)) {
        fprintf(stderr, "racing: car %d: %s\n", i, carom_last_error());
        return -1;
    }
    car->rear_axle = def.wheels[2].position.x;
    car->wheelbase = def.wheels[0].position.x - car->rear_axle;
    car->nose = car->half_length + 0.15;
    car->name = car_names[i];
    car->color = car_colors[i];
    car->next_checkpoint = 0;
    car->lap_start_step = -1;
    car->ai.line_index = sample;
    /* 0.88 .. 0.985, mixed on the grid */
    car->ai.pace = is_truck ? TRUCK_PACE : 0.88 + 0.015 * ((i * 5) % 8);
    return 0;
}

/* The trailer straight behind the truck, on the hitch. */
static int hitch_trailer(race* r) {
    const race_car* truck = &r->cars[RACE_TRUCK];
    race_trailer* trailer = &r->trailer;
    carom_transform xf = carom_body_get_transform(truck->body);
    carom_vec2 heading = carom_rotate(xf.q, carom_v2(1.0, 0.0));
    carom_vec2 hitch = carom_transform_point(xf, carom_v2(HITCH_ON_TRUCK, 0.0));
    trailer->body = create_vehicle_body(r, carom_mul_sub(hitch, HITCH_ON_TRAILER, heading),
                                        heading);
    carom_shape_def shape = vehicle_shape_def(TRAILER_MASS, TRAILER_HALF_LENGTH,
                                              TRAILER_HALF_WIDTH);
    trailer->shape = carom_create_box_shape(trailer->body, &shape, TRAILER_HALF_LENGTH,
                                            TRAILER_HALF_WIDTH, carom_v2(0.0, 0.0), 0.0);
    carom_vehicle_def axle = trailer_vehicle_def();
    trailer->axle = carom_create_vehicle(trailer->body, &axle);
    carom_revolute_joint_def def = carom_default_revolute_joint_def();
    def.anchor = hitch;
    trailer->hitch = carom_create_revolute_joint(truck->body, trailer->body, &def);
    if (!carom_vehicle_is_valid(trailer->axle) || !carom_joint_is_valid(trailer->hitch)) {
        fprintf(stderr, "racing: trailer: %s\n", carom_last_error());
        return -1;
    }
    return 0;
}

/* The barrier gate at the pit entrance, on the outer side of the road before the line. */
static int build_gate(race* r) {
    const track* t = &r->track;
    race_gate* gate = &r->gate;
    int sample = track_wrap(t, t->start_sample - (int)(GATE_BEFORE_LINE / t->spacing + 0.5));
    gate->closed_dir = t->normal[sample]; /* from the outer wall towards the inside */
    gate->hinge_point = carom_mul_sub(t->center[sample], t->wall_offset - 0.5, t->normal[sample]);
    gate->length = GATE_LENGTH;
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = carom_mul_add(gate->hinge_point, 0.5 * GATE_LENGTH, gate->closed_dir);
    body_def.angle = carom_atan2(gate->closed_dir.y, gate->closed_dir.x);
    body_def.angular_damping = 1.0;
    gate->arm = carom_create_body(r->world, &body_def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = GATE_MASS / (2.0 * GATE_LENGTH * GATE_HALF_WIDTH);
    shape.friction = 0.3;
    shape.restitution = 0.1;
    shape.filter.category = CAT_WALL; /* it stops cars; it swings past the walls */
    shape.filter.mask = CAT_CAR;
    gate->shape = carom_create_box_shape(gate->arm, &shape, 0.5 * GATE_LENGTH, GATE_HALF_WIDTH,
                                         carom_v2(0.0, 0.0), 0.0);
    carom_revolute_joint_def def = carom_default_revolute_joint_def();
    def.anchor = gate->hinge_point;
    def.enable_limit = 1;
    def.lower_angle = -RACE_GATE_OPEN_LIMIT;
    def.upper_angle = RACE_GATE_OPEN_LIMIT;
    def.enable_spring = 1;
    def.hertz = GATE_HERTZ;
    def.damping_ratio = GATE_DAMPING_RATIO;
    gate->hinge = carom_create_revolute_joint(t->ground, gate->arm, &def);
    if (!carom_joint_is_valid(gate->hinge)) {
        fprintf(stderr, "racing: gate: %s\n", carom_last_error());
        return -1;
    }
    return 0;
}

int race_create(race* r, int human) {
    memset(r, 0, sizeof(*r));
    carom_world_def world_def = carom_default_world_def();
    world_def.gravity = carom_v2(0.0, 0.0);
    r->world = carom_create_world(&world_def);
    if (!carom_world_is_valid(r->world) || track_build(&r->track, r->world) != 0) {
        return -1;
    }
    for (int i = 0; i < RACE_CARS; ++i) {
        if (place_car(r, i) != 0) {
            return -1;
        }
    }
    if (hitch_trailer(r) != 0 || build_gate(r) != 0) {
        return -1;
    }
    if (human >= 0 && human < RACE_CARS) {
        r->cars[human].human = 1;
    }
    r->spark_random = 0x9e3779b97f4a7c15ull;
    return 0;
}

void race_destroy(race* r) {
    carom_destroy_world(r->world);
}

void race_set_human_input(race* r, double throttle, double brake, double steer, int handbrake) {
    for (int i = 0; i < RACE_CARS; ++i) {
        if (r->cars[i].human) {
            carom_vehicle_set_input(r->cars[i].vehicle, throttle, brake, steer, handbrake);
        }
    }
}

static int car_of_shape(const race* r, carom_shape_id shape) {
    for (int i = 0; i < RACE_CARS; ++i) {
        if (carom_shape_id_equals(r->cars[i].shape, shape)) {
            return i;
        }
    }
    return -1;
}

static int checkpoint_of_shape(const race* r, carom_shape_id shape) {
    for (int k = 0; k < TRACK_CHECKPOINTS; ++k) {
        if (carom_shape_id_equals(r->track.checkpoint[k], shape)) {
            return k;
        }
    }
    return -1;
}

/* A car entered checkpoint k: a lap counts only after every checkpoint in order. */
static void pass_checkpoint(race* r, race_car* car, int k) {
    if (k != car->next_checkpoint) {
        return;
    }
    car->next_checkpoint = (k + 1) % TRACK_CHECKPOINTS;
    if (k != 0) {
        return;
    }
    if (car->lap_start_step >= 0 && car->lap_count < RACE_MAX_LAPS) {
        int steps = r->step - car->lap_start_step;
        car->lap_steps[car->lap_count++] = steps;
        if (car->best_lap_steps == 0 || steps < car->best_lap_steps) {
            car->best_lap_steps = steps;
        }
    }
    car->lap_start_step = r->step;
}

/* xorshift64*: the sparks' own random numbers, in [-1, 1). */
static double spark_random(race* r) {
    uint64_t x = r->spark_random;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->spark_random = x;
    return (double)((x * 0x2545f4914f6cdd1dull) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static void throw_sparks(race* r, const carom_contact_hit_event* hit) {
    int count = (int)fmin(24.0, 3.0 * hit->approach_speed);
    carom_vec2 tangent = carom_left_perp(hit->normal);
    for (int i = 0; i < count; ++i) {
        race_spark* spark = &r->sparks[r->spark_next];
        r->spark_next = (r->spark_next + 1) % RACE_MAX_SPARKS;
        double along = 1.5 * hit->approach_speed * spark_random(r);
        double across = 0.6 * hit->approach_speed * spark_random(r);
        spark->position = hit->point;
        spark->velocity = carom_add(carom_scale(along, tangent), carom_scale(across, hit->normal));
        spark->life = 0.8 + 0.3 * spark_random(r);
    }
}

static void read_events(race* r) {
    carom_sensor_events sensors = carom_world_get_sensor_events(r->world);
    for (int i = 0; i < sensors.begin_count; ++i) {
        int k = checkpoint_of_shape(r, sensors.begin_events[i].sensor);
        int c = car_of_shape(r, sensors.begin_events[i].visitor);
        if (k >= 0 && c >= 0) {
            pass_checkpoint(r, &r->cars[c], k);
        }
    }
    carom_contact_events contacts = carom_world_get_contact_events(r->world);
    for (int i = 0; i < contacts.hit_count; ++i) {
        const carom_contact_hit_event* hit = &contacts.hit_events[i];
        int a = car_of_shape(r, hit->shape_a), b = car_of_shape(r, hit->shape_b);
        if (a >= 0) {
            r->cars[a].hits += 1;
        }
        if (b >= 0) {
            r->cars[b].hits += 1;
        }
        throw_sparks(r, hit);
    }
}

static void update_sparks(race* r) {
    for (int i = 0; i < RACE_MAX_SPARKS; ++i) {
        race_spark* spark = &r->sparks[i];
        if (spark->life > 0.0) {
            spark->position = carom_mul_add(spark->position, RACE_DT, spark->velocity);
            spark->velocity = carom_scale(0.95, spark->velocity);
            spark->life -= RACE_DT;
        }
    }
}

/* Skid marks: a segment per sliding wheel per step, in a ring. */
static void update_skids(race* r) {
    for (int c = 0; c < RACE_CARS; ++c) {
        race_car* car = &r->cars[c];
        carom_vehicle_state state;
        carom_vehicle_get_state(car->vehicle, &state);
        for (int w = 0; w < state.wheel_count; ++w) {
            const carom_wheel_state* wheel = &state.wheels[w];
            int sliding = wheel->sliding && fabs(wheel->slip_angle) > 0.2;
            if (sliding && car->wheel_was_sliding[w]) {
                race_skid* skid = &r->skids[r->skid_count % RACE_MAX_SKIDS];
                skid->a = car->last_wheel[w];
                skid->b = wheel->position;
                r->skid_count += 1;
            }
            car->wheel_was_sliding[w] = sliding;
            car->last_wheel[w] = wheel->position;
        }
    }
}

/* The trailer brakes with the truck (its throttle stays 0: it has no engine). */
static void brake_trailer(race* r) {
    carom_vehicle_input truck = carom_vehicle_get_input(r->cars[RACE_TRUCK].vehicle);
    carom_vehicle_input trailer = carom_vehicle_get_input(r->trailer.axle);
    if (trailer.brake != truck.brake) {
        carom_vehicle_set_input(r->trailer.axle, 0.0, truck.brake, 0.0, 0);
    }
}

int race_step(race* r) {
    for (int i = 0; i < RACE_CARS; ++i) {
        if (!r->cars[i].human) {
            ai_drive(r, i);
        }
    }
    brake_trailer(r);
    carom_status status = carom_world_step(r->world, RACE_DT);
    if (status != CAROM_OK) {
        fprintf(stderr, "racing: step %d: %s\n", r->step, carom_last_error());
        return -1;
    }
    r->step += 1;
    read_events(r);
    update_sparks(r);
    update_skids(r);
    return 0;
}

/* carom_bodies_hash over the track's ground and the cars, in that order. */
uint64_t race_hash(const race* r) {
    carom_body_id bodies[RACE_CARS + 3];
    bodies[0] = r->track.ground;
    for (int i = 0; i < RACE_CARS; ++i) {
        bodies[i + 1] = r->cars[i].body;
    }
    bodies[RACE_CARS + 1] = r->trailer.body;
    bodies[RACE_CARS + 2] = r->gate.arm;
    return carom_bodies_hash(bodies, RACE_CARS + 3);
}

void race_standings(const race* r, int order[RACE_CARS]) {
    for (int i = 0; i < RACE_CARS; ++i) {
        order[i] = i;
    }
    /* insertion sort: stable, so equal racers keep their grid order */
    for (int i = 1; i < RACE_CARS; ++i) {
        for (int j = i; j > 0; --j) {
            const race_car* a = &r->cars[order[j - 1]];
            const race_car* b = &r->cars[order[j]];
            int a_start = a->lap_start_step < 0 ? 1 << 30 : a->lap_start_step;
            int b_start = b->lap_start_step < 0 ? 1 << 30 : b->lap_start_step;
            if (b->lap_count > a->lap_count ||
                (b->lap_count == a->lap_count && b_start < a_start)) {
                int swap = order[j - 1];
                order[j - 1] = order[j];
                order[j] = swap;
            }
        }
    }
}

void race_print_table(const race* r, FILE* out) {
    fprintf(out, "carom racing: %d cars and a truck with a trailer, %.2f s (%d steps of 1/60 s), "
            "track %.1f m\n", RACE_CARS - 1, race_seconds(r->step), r->step, r->track.length);
    fprintf(out, "pos car      laps  best lap          last lap   hits  lap times (s)\n");
    int order[RACE_CARS];
    race_standings(r, order);
    for (int p = 0; p < RACE_CARS; ++p) {
        const race_car* car = &r->cars[order[p]];
        char best[32] = "-", last[32] = "-";
        if (car->lap_count > 0) {
            snprintf(best, sizeof(best), "%.3f (%d)", race_seconds(car->best_lap_steps),
                     car->best_lap_steps);
            snprintf(last, sizeof(last), "%.3f", race_seconds(car->lap_steps[car->lap_count - 1]));
        }
        fprintf(out, "%2d  %-8s %4d  %-16s  %-9s %4d ", p + 1, car->name, car->lap_count, best,
                last, car->hits);
        for (int l = 0; l < car->lap_count; ++l) {
            fprintf(out, " %.3f", race_seconds(car->lap_steps[l]));
        }
        fprintf(out, "%s\n", car->human ? "  (you)" : "");
    }
    fprintf(out, "state hash: %016llx\n", (unsigned long long)race_hash(r));
}
