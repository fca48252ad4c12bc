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
    int* order;            /* stb_ds array: constraint indices grouped by colour, overflow last */
    /* constraints of colour c are order[color_start[c]] to order[color_start[c + 1] - 1], in
     * ascending index order; the overflow is colour CAROM_OVERFLOW_COLOR */
    int color_start[CAROM_GRAPH_COLORS + 2];
} carom_constraint_graph;

/* Colour `count` constraints, visited in index order. moving_a[i] and moving_b[i] are the solver
 * states of the bodies constraint i moves, or -1 for a body it only reads (static, kinematic);
 * states are below state_count. colors[i] receives each constraint's colour. The result depends
 * on nothing but the inputs, so it needs no saving in a snapshot. */
void carom_graph_color(carom_constraint_graph* graph, const int* moving_a, const int* moving_b,
                       int count, int state_count, int* colors);
void carom_graph_destroy(carom_constraint_graph* graph);

#endif
