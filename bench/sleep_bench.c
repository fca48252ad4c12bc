/* sleep_bench: what rest costs. Builds 10,000 boxes resting in 2,000 stacks of five on one
 * ground, lets them settle, then times steps of the same scene with sleep off (everything
 * solved every step) and with sleep on (every island asleep), interleaved, and prints the
 * median ms per step of each and their ratio.
 * Usage: sleep_bench [rounds] (default 5 rounds of 100 steps each) */
#define _POSIX_C_SOURCE 200809L
#include <carom/carom.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define STACKS 2000
#define HEIGHT 5

static carom_world_id build(int enable_sleep) {
    carom_world_def def = carom_default_world_def();
    def.enable_sleep = enable_sleep;
    carom_world_id world = carom_create_world(&def);
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(ground, &shape, STACKS * 1.5 * 0.5 + 5.0, 0.5, carom_v2(0.0, -0.5),
                           0.0);
    for (int s = 0; s < STACKS; ++s) {
        for (int h = 0; h < HEIGHT; ++h) {
            carom_body_def def_box = carom_default_body_def();
            def_box.type = CAROM_BODY_DYNAMIC;
            def_box.position = carom_v2((s - 0.5 * STACKS) * 1.5, 0.5 + h);
            carom_body_id box = carom_create_body(world, &def_box);
            carom_create_box_shape(box, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
        }
    }
    for (int i = 0; i < 180; ++i) {
        carom_world_step(world, 1.0 / 60.0);
    }
    return world;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static double time_steps(carom_world_id world, int steps) {
    double start = now_ms();
    for (int i = 0; i < steps; ++i) {
        carom_world_step(world, 1.0 / 60.0);
    }
    return (now_ms() - start) / steps;
}

static int compare(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > 100) {
        fprintf(stderr, "usage: sleep_bench [rounds 1..100]\n");
        return 2;
    }
    carom_world_id awake = build(0);
    carom_world_id asleep = build(1);
    carom_world_counters counters = carom_world_get_counters(asleep);
    printf("%d resting boxes; with sleep on, %d awake in %d sleeping islands\n",
           STACKS * HEIGHT, counters.awake_body_count, counters.sleeping_island_count);
    double awake_ms[100], asleep_ms[100];
    for (int r = 0; r < rounds; ++r) {
        awake_ms[r] = time_steps(awake, 100);
        asleep_ms[r] = time_steps(asleep, 100);
    }
    qsort(awake_ms, (size_t)rounds, sizeof(double), compare);
    qsort(asleep_ms, (size_t)rounds, sizeof(double), compare);
    double a = awake_ms[rounds / 2], s = asleep_ms[rounds / 2];
    printf("median ms/step: awake %.3f, asleep %.4f, asleep is %.1fx faster\n", a, s, a / s);
    carom_destroy_world(awake);
    carom_destroy_world(asleep);
    return 0;
}
