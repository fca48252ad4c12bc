/* The arena soak, as long as you like: `build/tests/soak [scenes] [steps] [first seed]`
 * (defaults 20, 3000, 0) runs the scenes of soak_arena.h and prints what each did. The test
 * suite runs the first 20 for 3,000 steps (tests/test_containment.c); docs/guide.md has the
 * last long run. Exits 1 if any scene lost a body or saw a non-finite value. */
#include "soak_arena.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    int scenes = argc > 1 ? atoi(argv[1]) : 20;
    int steps = argc > 2 ? atoi(argv[2]) : 3000;
    int first = argc > 3 ? atoi(argv[3]) : 0;
    if (scenes < 1 || steps < 1 || first < 0) {
        fprintf(stderr, "usage: soak [scenes >= 1] [steps >= 1] [first seed >= 0]\n");
        return 2;
    }
    int failed = 0;
    double worst_energy = 0.0;
    for (int seed = first; seed < first + scenes; ++seed) {
        soak_scene scene;
        soak_build((uint64_t)seed, &scene);
        soak_result r = soak_run(&scene, steps);
        printf("seed %d: %d bodies, walls %d, %d substeps: lost %d, non-finite %d, "
               "max speed %.0f m/s, energy x%.4f%s\n",
               seed, scene.count, scene.wall_kind, scene.substeps, r.lost, r.non_finite,
               r.max_speed, r.energy_ratio, scene.has_kinematic ? " (kinematic spinners)" : "");
        if (r.lost > 0) {
            printf("  first lost: body %d at step %d\n", r.first_lost_body, r.first_lost_step);
        }
        if (!scene.has_kinematic && r.energy_ratio > worst_energy) {
            worst_energy = r.energy_ratio;
        }
        failed += r.lost > 0 || r.non_finite;
        carom_destroy_world(scene.world);
    }
    printf("%d of %d scenes lost a body or a number; largest energy gain without kinematic "
           "bodies x%.4f\n", failed, scenes, worst_energy);
    return failed > 0;
}
