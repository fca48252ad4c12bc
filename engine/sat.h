/* Separating-axis contact tests between shape pairs; pure functions, see collision.h. */
#ifndef CAROM_SAT_H
#define CAROM_SAT_H

#include "carom/collision.h"

/* When polygon B's best face beats polygon A's by less than this (m), A's face stays the
 * reference, so the reference does not flip between steps and warm starting keeps working. */
#define CAROM_REFERENCE_FACE_TOLERANCE 0.0005

#endif
