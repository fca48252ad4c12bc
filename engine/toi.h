/* The time-of-impact test of toi.c on shapes where they lie: the public carom_time_of_impact
 * takes carom_convex_shape values, which hold a whole polygon (288 bytes); continuous
 * collision tests each fast body against the walls near it every step, and copying both
 * shapes for every test cost more than the test itself. */
#ifndef CAROM_TOI_H
#define CAROM_TOI_H

#include "carom/collision.h"

#include <stdbool.h>

/* A circle or a polygon (a segment is a two-vertex polygon), read in place: the one the flag
 * names must point at the shape's geometry (body frame) for as long as the test runs. */
typedef struct carom_toi_shape {
    bool is_circle;
    const carom_circle* circle;
    const carom_polygon* polygon;
} carom_toi_shape;

/* carom_time_of_impact (collision.h), the same answer bit for bit. */
carom_toi_output carom_time_of_impact_in_place(const carom_toi_shape* a, const carom_sweep* sweep_a,
                                               const carom_toi_shape* b, const carom_sweep* sweep_b,
                                               double target);

#endif
