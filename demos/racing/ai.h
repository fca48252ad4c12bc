/* The racing demo's AI driver: pure pursuit of the racing line, throttle and brake from the
 * speed profile ahead, and ray casts to avoid the cars in front. */
#ifndef RACING_AI_H
#define RACING_AI_H

#include "race.h"

/* Set car `index`'s vehicle input for the next step. */
void ai_drive(race* r, int index);

#endif
