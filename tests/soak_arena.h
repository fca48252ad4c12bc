/* The arena soak: a closed box of static walls holding bodies of every size, density, speed
 * and bounce, stepped for a long time (tests/test_containment.c, and tests/soak.c for longer
 * runs: docs/guide.md). Built from a seed alone, so any scene can be run again. */
#ifndef CAROM_SOAK_ARENA_H
#define CAROM_SOAK_ARENA_H

#include <carom/carom.h>

#include <stdint.h>

#define SOAK_MAX_BODIES 64
#define SOAK_HALF_SIZE 30.0 /* the walls' inner faces are at x, y = +-30 m */

typedef struct soak_scene {
    carom_world_id world;
    int substeps;
    int wall_kind; /* 0: four segments, 1: a chain loop, 2: four 2 m thick boxes */
    int count;
    carom_body_id bodies[SOAK_MAX_BODIES];
    double size[SOAK_MAX_BODIES]; /* the body's overall size (m) */
    int has_kinematic;            /* a spinning kinematic body is in the arena */
} soak_scene;

typedef struct soak_result {
    int lost;             /* dynamic bodies whose center left the box by more than half their size */
    int first_lost_step;  /* -1 if none */
    int first_lost_body;
    int non_finite;       /* a non-finite position or velocity was seen */
    double energy_ratio;  /* largest total energy (kinetic plus gravity's) over the first step's */
    double max_speed;     /* m/s */
} soak_result;

/* Build the scene of `seed`: 20 to 59 bodies (circles, boxes and polygons of 0.05 to 5 m,
 * densities 0.01 to 1000 kg/m², restitution and friction 0 to 1, speeds up to 200 m/s and spins
 * up to 20 rad/s, some bullets, some spinning kinematic bodies), placed at random and free to
 * start overlapping, 1 to 8 substeps, gravity on or off. */
void soak_build(uint64_t seed, soak_scene* scene);
/* Step the scene `steps` times at 60 Hz, watching every dynamic body after every step. */
soak_result soak_run(soak_scene* scene, int steps);

#endif
