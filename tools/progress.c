/* The progress line: see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

void progress_init(progress* p, bool quiet) {
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->shown = false;
    p->start = p->enabled ? now_seconds() : 0.0;
    p->last = p->start;
}

void progress_update(progress* p, int step, int total) {
    if (!p->enabled) {
        return;
    }
    double now = now_seconds();
    if (now - p->start < 1.0 || now - p->last < 0.25) {
        return;
    }
    double left = (now - p->start) * (double)(total - step) / (double)step;
    fprintf(stderr, "\rcarom: step %d of %d (%d%%), about %.0f s left\033[K", step, total,
            (int)(100.0 * step / total), ceil(left));
    p->shown = true;
    p->last = now;
}

void progress_end(progress* p) {
    if (p->shown) {
        fputs("\r\033[K", stderr); /* erase the line: it was only ever a running commentary */
    }
}
