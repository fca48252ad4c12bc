/* Drawing the race into a canvas: surfaces, walls and cars through render_world, skid marks,
 * sparks, the AI's rays, and the lap table. */
#ifndef RACING_RENDER_H
#define RACING_RENDER_H

#include "canvas.h"
#include "race.h"
#include "world_draw.h"

typedef struct render_options {
    int show_rays;    /* the AI's ray casts */
    int show_table;   /* the lap table in the top-left corner */
    double text_size; /* pixels per font pixel */
} render_options;

/* A view that shows the whole track in the canvas. */
canvas_view render_track_view(const race* r, const canvas* c);
void render_race(const race* r, canvas* c, canvas_view view, render_options options);

#endif
