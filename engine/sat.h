/* Separating-axis contact tests between shape pairs; pure functions, see collision.h. */
#ifndef CAROM_SAT_H
#define CAROM_SAT_H

#include "carom/collision.h"

#include <math.h>

/* When polygon B's best face beats polygon A's by less than this (m), A's face stays the
 * reference, so the reference does not flip between steps and warm starting keeps working. */
#define CAROM_REFERENCE_FACE_TOLERANCE 0.0005

/* The face of poly1 along whose normal poly2 reaches farthest out (both in one frame): the
 * largest separation over poly1's faces, positive when that face separates them. The search
 * stops at the first face whose separation exceeds stop_above (m; DBL_MAX: never), which is
 * then the face returned: callers that only need to know "apart by more than stop_above" save
 * the other faces. */
double carom_polygon_max_separation(const carom_polygon* poly1, const carom_polygon* poly2,
                                    double stop_above, int* best_edge);

/* How far a box of half extents `half`, turned by q, reaches from its center along x and along
 * y: abs(c) x + abs(s) y and abs(s) x + abs(c) y, in that order (the world box of a centred box
 * relies on these roundings: shape.h). */
static inline carom_vec2 carom_box_reach(carom_vec2 half, carom_rot q) {
    double c = fabs(q.c);
    double s = fabs(q.s);
    carom_vec2 reach = {c * half.x + s * half.y, s * half.x + c * half.y};
    return reach;
}

/* carom_collide_polygons for two boxes around their bodies' origins (carom_shape_find_box: the
 * canonical polygon of carom_make_box with half extents half_a, half_b): the same manifold, found
 * by the boxes' two axes each instead of every face against every vertex. */
carom_manifold carom_collide_boxes(const carom_polygon* a, carom_vec2 half_a, carom_transform xfa,
                                   const carom_polygon* b, carom_vec2 half_b, carom_transform xfb,
                                   double speculative_distance);

#endif
