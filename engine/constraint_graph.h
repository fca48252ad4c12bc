/* The constraint graph: colouring constraints so that no two of one colour move the same body. */
#ifndef CAROM_CONSTRAINT_GRAPH_H
#define CAROM_CONSTRAINT_GRAPH_H

#include <stdint.h>

/* Colours. Every constraint takes the lowest colour that none of the bodies it moves holds
 * yet; one that finds none among these goes to the overflow, solved one at a time before the
 * colours. */
#define CAROM_GRAPH_COLORS 24
#define CAROM_OVERFLOW_COLOR CAROM_GRAPH_COLORS

typedef struct carom_constraint_graph {
    uint32_t* body_colors; /* stb_ds array: per solver state, the colours its constraints hold */
    /* the constraints of colour c would take places color_start[c] to color_start[c + 1] - 1
     * if laid out colour after colour, the overflow (colour CAROM_OVERFLOW_COLOR) last: the
     * running sum of the colours' sizes, so color_start[c + 1] - color_start[c] is c's size */
    int color_start[CAROM_GRAPH_COLORS + 2];
} carom_constraint_graph;

/* Colour `count` constraints, visited in index order. moving_a[i] and moving_b[i] are the solver
 * states of the bodies constraint i moves, or -1 for a body it only reads (static, kinematic);
 * states are below state_count. colors[i] receives each constraint's colour, and color_start
 * the colours' sizes. The result depends on nothing but the inputs, so it needs no saving in a
 * snapshot. Where each constraint goes within its colour is the caller's choice (the contact
 * solver lays them out on the workers, contact_solver.c). */
void carom_graph_color(carom_constraint_graph* graph, const int* moving_a, const int* moving_b,
                       int count, int state_count, int* colors);
void carom_graph_destroy(carom_constraint_graph* graph);

#endif
