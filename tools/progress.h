/* A progress line on stderr, only for a person watching: stderr is a terminal, the run has
 * already taken a second (short runs stay silent), and --quiet was not given. Erased when the
 * run ends: it was only ever a running commentary. */
#ifndef CAROM_TOOLS_PROGRESS_H
#define CAROM_TOOLS_PROGRESS_H

#include <stdbool.h>

typedef struct progress {
    bool enabled;
    bool shown;
    double start;
    double last;
} progress;

void progress_init(progress* p, bool quiet);
/* step of total done: "carom: step 120 of 600 (20%), about 4 s left", at most 4 times a second. */
void progress_update(progress* p, int step, int total);
void progress_end(progress* p);

#endif
