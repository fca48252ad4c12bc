/* racing_joints: the racing demo's two joints do what the demo says (meson test racing_joints).
 *
 * 1. The trailer follows the truck: over a race of RACE_SECONDS, the truck drives at least
 *    MIN_TRUCK_TRAVEL, and the hitch's two anchors (one on the truck, one on the trailer) stay
 *    within HITCH_TOLERANCE of each other at every step.
 * 2. The gate swings when hit and comes back: in the race's world with nothing driving, a loose
 *    1200 kg box sliding at 10 m/s along the road's edge hits the gate's arm, which must turn
 *    open by at least GATE_MIN_SWING, stay within its limits, and after the box has gone be back
 *    within GATE_CLOSED of closed (angle 0) and at rest within GATE_RETURN_SECONDS.
 *
 * Prints what it measured; exits 1 if a check fails. */
#include "race.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define RACE_SECONDS 40.0
#define MIN_TRUCK_TRAVEL 250.0 /* m */
#define HITCH_TOLERANCE 0.01   /* m */

#define GATE_MIN_SWING 0.5      /* rad */
#define GATE_CLOSED 0.02        /* rad */
#define GATE_RETURN_SECONDS 8.0 /* after the box has passed */

/* The hitch's anchor on each body, world frame. */
static double hitch_gap(const race* r) {
    carom_joint_frame frame;
    carom_joint_get_frame(r->trailer.hitch, &frame);
    carom_vec2 on_truck = carom_transform_point(carom_body_get_transform(r->cars[RACE_TRUCK].body),
                                                frame.local_anchor_a);
    carom_vec2 on_trailer = carom_transform_point(carom_body_get_transform(r->trailer.body),
                                                  frame.local_anchor_b);
    return carom_distance(on_truck, on_trailer);
}

static int check_hitch(void) {
    race* r = malloc(sizeof(race));
    if (r == NULL || race_create(r, -1) != 0) {
        fprintf(stderr, "racing_joints: could not build the race: %s\n", carom_last_error());
        free(r);
        return 1;
    }
    carom_vec2 start = carom_body_get_position(r->cars[RACE_TRUCK].body);
    carom_vec2 last = start;
    double travel = 0.0, worst_gap = hitch_gap(r), trailer_lag = 0.0;
    int steps = (int)(RACE_SECONDS * 60.0 + 0.5);
    for (int i = 0; i < steps; ++i) {
        if (race_step(r) != 0) {
            race_destroy(r);
            free(r);
            return 1;
        }
        carom_vec2 p = carom_body_get_position(r->cars[RACE_TRUCK].body);
        travel += carom_distance(p, last);
        last = p;
        worst_gap = fmax(worst_gap, hitch_gap(r));
        trailer_lag = fmax(trailer_lag,
                           carom_distance(p, carom_body_get_position(r->trailer.body)));
    }
    printf("hitch: the truck drove %.1f m in %.0f s; the hitch's anchors were at most %.2e m "
           "apart; the trailer's centre at most %.3f m from the truck's\n",
           travel, RACE_SECONDS, worst_gap, trailer_lag);
    race_destroy(r);
    free(r);
    int failed = 0;
    if (!(travel >= MIN_TRUCK_TRAVEL)) {
        fprintf(stderr, "racing_joints: the truck drove %.1f m, expected at least %.0f m\n",
                travel, MIN_TRUCK_TRAVEL);
        failed = 1;
    }
    if (!(worst_gap <= HITCH_TOLERANCE)) {
        fprintf(stderr, "racing_joints: the hitch opened to %.4f m (at most %.3f m)\n", worst_gap,
                HITCH_TOLERANCE);
        failed = 1;
    }
    return failed;
}

/* A loose car-sized box 15 m before the gate, 1 m inside the tip of its arm, sliding along the
 * road at 10 m/s. */
static carom_body_id launch_box(race* r) {
    const race_gate* gate = &r->gate;
    carom_vec2 along = carom_right_perp(gate->closed_dir); /* the direction of racing */
    carom_vec2 at = carom_mul_add(gate->hinge_point, gate->length - 1.0, gate->closed_dir);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_mul_sub(at, 15.0, along);
    def.angle = carom_atan2(along.y, along.x);
    def.linear_velocity = carom_scale(10.0, along);
    carom_body_id box = carom_create_body(r->world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = 1200.0 / (4.4 * 1.8);
    shape.filter.category = CAT_CAR;
    carom_create_box_shape(box, &shape, 2.2, 0.9, carom_v2(0.0, 0.0), 0.0);
    return box;
}

static int check_gate(void) {
    race* r = malloc(sizeof(race));
    if (r == NULL || race_create(r, -1) != 0) {
        fprintf(stderr, "racing_joints: could not build the race: %s\n", carom_last_error());
        free(r);
        return 1;
    }
    carom_body_id box = launch_box(r);
    const race_gate* gate = &r->gate;
    carom_vec2 along = carom_right_perp(gate->closed_dir);
    double widest = 0.0;
    int passed_step = -1, step = 0;
    int limit_steps = (int)((3.0 + GATE_RETURN_SECONDS) * 60.0);
    for (; step < limit_steps; ++step) {
        if (carom_world_step(r->world, RACE_DT) != CAROM_OK) {
            fprintf(stderr, "racing_joints: %s\n", carom_last_error());
            break;
        }
        double angle = carom_joint_get_angle(gate->hinge);
        widest = fabs(angle) > fabs(widest) ? angle : widest;
        carom_vec2 offset = carom_sub(carom_body_get_position(box), gate->hinge_point);
        if (passed_step < 0 && carom_dot(offset, along) > 10.0) {
            passed_step = step; /* the box is 10 m past the hinge */
        }
        if (passed_step >= 0 && step - passed_step >= (int)(GATE_RETURN_SECONDS * 60.0)) {
            break;
        }
    }
    double final_angle = carom_joint_get_angle(gate->hinge);
    double final_spin = carom_body_get_angular_velocity(gate->arm);
    printf("gate: the box opened it to %.3f rad (limit %.2f); %.1f s after the box had passed it "
           "was at %.2e rad, turning at %.2e rad/s\n",
           widest, RACE_GATE_OPEN_LIMIT, GATE_RETURN_SECONDS, final_angle, final_spin);
    race_destroy(r);
    free(r);
    int failed = 0;
    if (!(fabs(widest) >= GATE_MIN_SWING && fabs(widest) <= RACE_GATE_OPEN_LIMIT + 0.02)) {
        fprintf(stderr, "racing_joints: the gate opened to %.3f rad: expected %.2f to %.2f\n",
                widest, GATE_MIN_SWING, RACE_GATE_OPEN_LIMIT + 0.02);
        failed = 1;
    }
    if (passed_step < 0) {
        fprintf(stderr, "racing_joints: the box never got past the gate\n");
        failed = 1;
    }
    if (!(fabs(final_angle) <= GATE_CLOSED && fabs(final_spin) <= 0.05)) {
        fprintf(stderr, "racing_joints: the gate did not come back: %.4f rad, %.4f rad/s\n",
                final_angle, final_spin);
        failed = 1;
    }
    return failed;
}

int main(void) {
    int failed = check_hitch();
    failed |= check_gate();
    return failed;
}
