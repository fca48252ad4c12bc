/* Shared helpers for the Criterion tests: small world builders and measurements. */
#ifndef CAROM_TEST_HELPERS_H
#define CAROM_TEST_HELPERS_H

#include <carom/carom.h>

#include <stdint.h>

/* A world with the given gravity and otherwise default settings. */
carom_world_id test_make_world(carom_vec2 gravity);
/* A static ground box whose top face is the line y = top, 200 m wide. */
carom_body_id test_make_ground(carom_world_id world, double top, double friction,
                               double restitution);
/* A static wall 10 cm thick and 4 m tall, centred on (x, 0). */
carom_body_id test_make_thin_wall(carom_world_id world, double x);
/* A dynamic ball of radius r and density 1 at p with velocity v. */
carom_body_id test_make_ball(carom_world_id world, carom_vec2 p, double radius, carom_vec2 v,
                             double friction, double restitution);
/* A dynamic box (half extents hx, hy, density 1) at p turned by angle. */
carom_body_id test_make_box(carom_world_id world, carom_vec2 p, double hx, double hy,
                            double angle, double friction, double restitution);
/* carom_bodies_hash of the bodies, asserting that it succeeded: equal hashes, equal states. */
uint64_t test_hash_bodies(const carom_body_id* bodies, int count);
/* Step n times with dt. Aborts the test (via Criterion) if a step fails. */
void test_step(carom_world_id world, double dt, int n);

#endif
