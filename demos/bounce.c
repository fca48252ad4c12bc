/* bounce: the smallest carom program worth watching.
 *
 * Three balls of restitution 0, 0.5 and 0.9 drop 2 m onto a static ground next to a stack of
 * five boxes. Every 0.1 s it draws the scene as text, then prints each ball's first rebound
 * height against the e^2 * drop height that restitution predicts. Headless, deterministic. */
#include <carom/carom.h>

#include <stdio.h>
#include <string.h>

#define COLUMNS 60
#define ROWS 14
#define BALL_COUNT 3

static void plot(char canvas[ROWS][COLUMNS + 1], carom_vec2 p, char mark) {
    /* x in [-3, 9] m, y in [0, 3.5] m */
    int column = (int)((p.x + 3.0) / 12.0 * COLUMNS);
    int row = ROWS - 1 - (int)(p.y / 3.5 * ROWS);
    if (column >= 0 && column < COLUMNS && row >= 0 && row < ROWS) {
        canvas[row][column] = mark;
    }
}

int main(void) {
    carom_world_def world_def = carom_default_world_def();
    carom_world_id world = carom_create_world(&world_def);

    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape_def = carom_default_shape_def();
    carom_create_box_shape(ground, &shape_def, 20.0, 0.5, carom_v2(0.0, -0.5), 0.0);

    const double restitutions[BALL_COUNT] = {0.0, 0.5, 0.9};
    carom_body_id balls[BALL_COUNT];
    for (int i = 0; i < BALL_COUNT; ++i) {
        carom_body_def def = carom_default_body_def();
        def.type = CAROM_BODY_DYNAMIC;
        def.position = carom_v2(-2.0 + 2.0 * i, 2.25);
        balls[i] = carom_create_body(world, &def);
        carom_shape_def ball_shape = carom_default_shape_def();
        ball_shape.restitution = restitutions[i];
        carom_circle circle = {{0.0, 0.0}, 0.25};
        carom_create_circle_shape(balls[i], &ball_shape, &circle);
    }
    carom_body_id boxes[5];
    for (int i = 0; i < 5; ++i) {
        carom_body_def def = carom_default_body_def();
        def.type = CAROM_BODY_DYNAMIC;
        def.position = carom_v2(6.0, 0.25 + 0.5 * i);
        boxes[i] = carom_create_body(world, &def);
        carom_create_box_shape(boxes[i], &shape_def, 0.25, 0.25, carom_v2(0.0, 0.0), 0.0);
    }

    const double dt = 1.0 / 240.0;
    double apex[BALL_COUNT] = {0};
    int bounced[BALL_COUNT] = {0};
    double previous_vy[BALL_COUNT] = {0};
    for (int step = 0; step <= 480; ++step) {
        if (step % 24 == 0) {
            char canvas[ROWS][COLUMNS + 1];
            for (int r = 0; r < ROWS; ++r) {
                memset(canvas[r], ' ', COLUMNS);
                canvas[r][COLUMNS] = '\0';
            }
            for (int i = 0; i < BALL_COUNT; ++i) {
                plot(canvas, carom_body_get_position(balls[i]), (char)('A' + i));
            }
            for (int i = 0; i < 5; ++i) {
                plot(canvas, carom_body_get_position(boxes[i]), '#');
            }
            printf("t = %.2f s\n", step * dt);
            for (int r = 0; r < ROWS; ++r) {
                printf("|%s|\n", canvas[r]);
            }
            printf("+------------------------------------------------------------+\n");
        }
        carom_world_step(world, dt);
        for (int i = 0; i < BALL_COUNT; ++i) {
            double vy = carom_body_get_linear_velocity(balls[i]).y;
            double y = carom_body_get_position(balls[i]).y - 0.25;
            if (previous_vy[i] < -1.0 && vy > 0.0) {
                bounced[i] += 1;
            }
            if (bounced[i] == 1 && y > apex[i]) {
                apex[i] = y;
            }
            previous_vy[i] = vy;
        }
    }
    printf("\nfirst rebound of a ball dropped 2 m (restitution e predicts e^2 * 2 m):\n");
    for (int i = 0; i < BALL_COUNT; ++i) {
        double e = restitutions[i];
        printf("  ball %c  e = %.1f  rebound %.3f m  predicted %.3f m\n", 'A' + i, e, apex[i],
               e * e * 2.0);
    }
    carom_vec2 top = carom_body_get_position(boxes[4]);
    printf("top box of the stack: (%.4f, %.4f), started at (6.0000, 2.2500)\n", top.x, top.y);
    carom_destroy_world(world);
    return 0;
}
