/* lockstep.c: two peers step the same world from the same inputs and compare state hashes. */
#include <carom/carom.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#define FRAMES 600
#define CHECK_EVERY 60 /* frames between two hash exchanges */

/* One peer's copy of the game: a walled table and the puck its players push. */
typedef struct peer {
    carom_world_id world;
    carom_body_id puck;
} peer;

static peer make_peer(void) {
    peer p;
    carom_world_def world_def = carom_default_world_def();
    world_def.gravity = carom_v2(0.0, 0.0); /* seen from above */
    p.world = carom_create_world(&world_def);
    carom_body_def table_def = carom_default_body_def();
    carom_body_id table = carom_create_body(p.world, &table_def);
    carom_shape_def wall_def = carom_default_shape_def();
    wall_def.restitution = 0.8;
    const carom_vec2 walls[4] = {{-10.0, -5.0}, {10.0, -5.0}, {10.0, 5.0}, {-10.0, 5.0}};
    carom_create_chain(table, &wall_def, walls, 4, 1, NULL);
    carom_body_def puck_def = carom_default_body_def();
    puck_def.type = CAROM_BODY_DYNAMIC;
    puck_def.linear_damping = 0.5;
    p.puck = carom_create_body(p.world, &puck_def);
    carom_shape_def puck_shape = carom_default_shape_def();
    puck_shape.restitution = 0.8;
    carom_circle circle = {{0.0, 0.0}, 0.5};
    carom_create_circle_shape(p.puck, &puck_shape, &circle);
    return p;
}

/* A frame's input as the network carries it: a small integer (here a seeded generator's,
 * standing for a player's key presses), turned into an impulse the same way on every peer:
 * a direction in whole 45 degree turns through carom's own sine and cosine, never libm's. */
static uint32_t next_input(uint32_t* state) {
    *state = *state * 1664525u + 1013904223u; /* the same integers everywhere */
    return *state >> 16;
}

static void apply_input(const peer* p, uint32_t input) {
    if (input % 8 != 0) {
        return; /* no key pressed this frame */
    }
    carom_rot direction = carom_make_rot((double)(input / 8 % 8) * (CAROM_PI / 4.0));
    carom_vec2 impulse = carom_v2(2.0 * direction.c, 2.0 * direction.s); /* N·s */
    carom_body_apply_linear_impulse(p->puck, impulse, carom_body_get_position(p->puck));
}

int main(void) {
    peer a = make_peer();
    peer b = make_peer();
    uint32_t seed = 2026; /* agreed when the match starts */
    for (int frame = 1; frame <= FRAMES; ++frame) {
        uint32_t input = next_input(&seed);
        apply_input(&a, input);
        apply_input(&b, input);
        carom_world_step(a.world, 1.0 / 60.0);
        carom_world_step(b.world, 1.0 / 60.0);
        if (frame % CHECK_EVERY == 0) {
            /* Each peer sends its 8 bytes; a difference is a desync at or before this frame. */
            uint64_t hash_a = carom_world_hash(a.world);
            uint64_t hash_b = carom_world_hash(b.world);
            if (hash_a != hash_b) {
                printf("desync by frame %d: %016" PRIx64 " != %016" PRIx64 "\n", frame, hash_a,
                       hash_b);
                return 1;
            }
        }
    }
    carom_vec2 at = carom_body_get_position(a.puck);
    printf("%d frames in lockstep; puck at (%.3f, %.3f) m; hash %016" PRIx64 "\n", FRAMES, at.x,
           at.y, carom_world_hash(a.world));
    carom_destroy_world(a.world);
    carom_destroy_world(b.world);
    return 0;
}
