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
    /* stb_ds array: per solver state, the colours its constraints hold, and one more entry
     * that stands for every body a constraint only reads */
    uint32_t* body_colors;
} carom_constraint_graph;

/* Colour `count` constraints, visited in index order. moving_a[i] and moving_b[i] are the solver
 * states of the bodies constraint i moves, or -1 for a body it only reads (static, kinematic);
 * states are below state_count. colors[i] receives each constraint's colour, or
 * CAROM_OVERFLOW_COLOR. The result depends on nothing but the inputs, so it needs no saving in
 * a snapshot. How many constraints each colour holds, and where each goes within its colour,
 * are the caller's to count (the contact solver does it on the workers, contact_solver.c): the
 * one pass left here is the one that cannot be cut, each colour depending on those before. */
void carom_graph_color(carom_constraint_graph* graph, const int* moving_a, const int* moving_b,
                       int count, int state_count, int* colors);
void carom_graph_destroy(carom_constraint_graph* graph);

#endif
