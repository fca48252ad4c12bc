/* Graph colouring of the constraints (Box2D v3's approach, after "High-Performance Physical
 * Simulations on Next-Generation Architecture with Many Cores", Intel Technology Journal 2009).
 *
 * Why: a sequential impulse solver visits constraints one after another and each sees the
 * velocities the previous ones left. If no two constraints of a set touch the same body, their
 * order within the set does not matter at all, so the set can be solved several constraints at a
 * time (wide lanes, contact_solver.h) or by several threads, and give the same bits as one at a
 * time. Colouring splits the constraints into such sets; the solver visits the colours in order.
 *
 * How: greedy, in constraint order, with a bit mask of colours per moving body: a constraint's
 * colour is the lowest colour neither of its bodies holds yet. Static and kinematic bodies are
 * never written by a constraint, so they hold no colour and any number of constraints of one
 * colour may read them. (Box2D v3 gives constraints against static bodies the highest free
 * colour instead, to solve them last; measured here on pyramids of 20 to 100 rows, solving them
 * with the others held the piles better: the 5,050-box pyramid's boxes moved up to 0.10 m
 * sideways against 0.12 m, at 30 Hz.)
 *
 * The colouring is made afresh every step from the constraints in id order. Box2D keeps colours
 * from step to step and updates them as contacts begin and end; here a fresh colouring costs a
 * few operations per constraint and depends on the world's state alone, which is what lets a
 * restored snapshot step bit for bit without storing it.
 *
 * The greedy pass is the one part of preparing the contacts that stays on the stepping thread
 * when a world has workers: each constraint's colour depends on every constraint before it, so
 * a colouring cut over workers would give other colours for another worker count, or need a
 * merging pass of its own. It is a few operations per constraint; collecting the constraints
 * before it and laying the colours out after it run on the workers (contact_solver.c). */
#include "core.h"

#include "constraint_graph.h"
#include "ds.h"

#include <string.h>

#define ALL_COLORS ((UINT32_C(1) << CAROM_GRAPH_COLORS) - 1u)

_Static_assert(CAROM_GRAPH_COLORS < 32, "colours are bits of a uint32_t");

/* The lowest colour neither moving body (-1: none) holds, now taken by them; or the overflow. */
static int choose_color(uint32_t* masks, int a, int b) {
    uint32_t held = (a >= 0 ? masks[a] : 0u) | (b >= 0 ? masks[b] : 0u);
    uint32_t free = ~held & ALL_COLORS;
    if (free == 0) {
        return CAROM_OVERFLOW_COLOR;
    }
    int color = __builtin_ctz(free);
    uint32_t bit = UINT32_C(1) << color;
    if (a >= 0) {
        masks[a] |= bit;
    }
    if (b >= 0) {
        masks[b] |= bit;
    }
    return color;
}

void carom_graph_color(carom_constraint_graph* graph, const int* moving_a, const int* moving_b,
                       int count, int state_count, int* colors) {
    arrsetlen(graph->body_colors, state_count);
    if (state_count > 0) {
        memset(graph->body_colors, 0, sizeof(uint32_t) * (size_t)state_count);
    }
    int counts[CAROM_GRAPH_COLORS + 1] = {0};
    for (int i = 0; i < count; ++i) {
        CAROM_ASSERT(moving_a[i] >= 0 || moving_b[i] >= 0);
        colors[i] = choose_color(graph->body_colors, moving_a[i], moving_b[i]);
        counts[colors[i]] += 1;
    }
    int start = 0;
    for (int c = 0; c <= CAROM_GRAPH_COLORS; ++c) {
        graph->color_start[c] = start;
        start += counts[c];
    }
    graph->color_start[CAROM_GRAPH_COLORS + 1] = start;
}

void carom_graph_destroy(carom_constraint_graph* graph) { arrfree(graph->body_colors); }
