/* Continuous collision: fast bodies are swept so they cannot pass through thin shapes. */
#ifndef CAROM_CONTINUOUS_H
#define CAROM_CONTINUOUS_H

typedef struct carom_world carom_world;

/* After the solver moved the bodies: move every fast body back to its first impact. */
void carom_continuous_step(carom_world* world);

#endif
