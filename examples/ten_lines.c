/* ten_lines.c: a ball dropped on the ground, where it is after 2 s. */
#include <carom/carom.h>
#include <stdio.h>

int main(void) {
    carom_world_def world_def = carom_default_world_def();          /* gravity (0, -10) */
    carom_world_id world = carom_create_world(&world_def);
    carom_body_def ground_def = carom_default_body_def();           /* static */
    carom_shape_def shape_def = carom_default_shape_def();
    carom_create_box_shape(carom_create_body(world, &ground_def), &shape_def, 10, 0.5, carom_v2(0, -0.5), 0);
    carom_body_def ball_def = carom_default_body_def();
    ball_def.type = CAROM_BODY_DYNAMIC;
    ball_def.position = carom_v2(0, 2);
    carom_body_id ball = carom_create_body(world, &ball_def);
    shape_def.restitution = 0.5;
    carom_circle circle = {{0, 0}, 0.25};
    carom_create_circle_shape(ball, &shape_def, &circle);
    for (int i = 0; i < 120; ++i) carom_world_step(world, 1.0 / 60.0);
    printf("ball at y = %.3f m\n", carom_body_get_position(ball).y);
    carom_destroy_world(world);
}
