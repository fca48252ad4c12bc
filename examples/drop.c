/* drop.c: a box and a ball fall onto the ground; print where they come to rest. */
#include <carom/carom.h>

#include <stdio.h>

static int fail(const char* what) {
    fprintf(stderr, "%s: %s (%s)\n", what, carom_status_str(carom_last_status()),
            carom_last_error());
    return 1;
}

int main(void) {
    carom_world_def world_def = carom_default_world_def(); /* gravity (0, -10) m/s² */
    carom_world_id world = carom_create_world(&world_def);
    if (CAROM_IS_NULL(world)) {
        return fail("create world");
    }

    /* Ground: a static body (the default type) with a 40 m x 1 m box whose top is y = 0. */
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def ground_shape = carom_default_shape_def();
    carom_create_box_shape(ground, &ground_shape, 20.0, 0.5, carom_v2(0.0, -0.5), 0.0);

    /* A 1 m box, density 2 kg/m², released 1 m above the ground. */
    carom_body_def box_def = carom_default_body_def();
    box_def.type = CAROM_BODY_DYNAMIC;
    box_def.position = carom_v2(0.0, 1.5);
    carom_body_id box = carom_create_body(world, &box_def);
    carom_shape_def box_shape = carom_default_shape_def();
    box_shape.density = 2.0;
    carom_create_box_shape(box, &box_shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);

    /* A ball that bounces (restitution 0.5) on the box. */
    carom_body_def ball_def = carom_default_body_def();
    ball_def.type = CAROM_BODY_DYNAMIC;
    ball_def.position = carom_v2(0.0, 4.0);
    carom_body_id ball = carom_create_body(world, &ball_def);
    carom_shape_def ball_shape = carom_default_shape_def();
    ball_shape.restitution = 0.5;
    carom_circle circle = {{0.0, 0.0}, 0.25}; /* center in the body frame, radius (m) */
    carom_shape_id ball_shape_id = carom_create_circle_shape(ball, &ball_shape, &circle);
    if (CAROM_IS_NULL(ball_shape_id)) {
        return fail("create ball");
    }

    const double dt = 1.0 / 60.0; /* one fixed step (s) */
    for (int i = 0; i < 300; ++i) {
        if (carom_world_step(world, dt) != CAROM_OK) {
            return fail("step");
        }
    }

    carom_vec2 p = carom_body_get_position(box);
    carom_vec2 q = carom_body_get_position(ball);
    printf("box  at (%.3f, %.3f) m, angle %.3f rad\n", p.x, p.y, carom_body_get_angle(box));
    printf("ball at (%.3f, %.3f) m, speed %.3f m/s\n", q.x, q.y,
           carom_length(carom_body_get_linear_velocity(ball)));
    carom_world_counters counters = carom_world_get_counters(world);
    printf("%d bodies, %d touching pairs after %d steps\n", counters.body_count,
           counters.touching_count, counters.step_count);

    /* A refused call returns a status, records a message and changes nothing. */
    if (carom_shape_set_friction(ball_shape_id, -1.0) != CAROM_OK) {
        printf("refused: %s\n", carom_last_error());
    }

    carom_destroy_world(world); /* destroys every body and shape in it */
    printf("ball id still valid: %d\n", carom_body_is_valid(ball));
    return 0;
}
