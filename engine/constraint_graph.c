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
 * restored snapshot step bit for bit without storing it. (contact_solver.c keeps the last
 * colours when this function's inputs are the same as the last step's: the same result.)
 *
 * The greedy pass is the one part of preparing the contacts that stays on the stepping thread
 * when a world has workers: each constraint's colour depends on every constraint before it, so
 * a colouring cut over workers would give other colours for another worker count, or need a
 * merging pass of its own. It is a few operations per constraint (2 to 3 ns on this project's
 * machine); collecting the constraints before it, and counting the colours and laying them out
 * after it, run on the workers (contact_solver.c). */
#include "core.h"

#include "constraint_graph.h"
#include "ds.h"

#include <string.h>

#define ALL_COLORS ((UINT32_C(1) << CAROM_GRAPH_COLORS) - 1u)

_Static_assert(CAROM_GRAPH_COLORS < 32, "colours are bits of a uint32_t");

void carom_graph_color(carom_constraint_graph* graph, const int* moving_a, const int* moving_b,
                       int count, int state_count, int* colors) {
    /* A body a constraint only reads (-1) is the extra entry, cleared after each use: reading
     * it then gives no colour and writing it keeps none, without a branch on either body (the
     * loop is one of the few on the stepping thread, and branches on which side is static
     * mispredict in a mixed pile). */
    int reader = state_count;
    arrsetlen(graph->body_colors, state_count + 1);
    memset(graph->body_colors, 0, sizeof(uint32_t) * (size_t)(state_count + 1));
    uint32_t* masks = graph->body_colors;
    for (int i = 0; i < count; ++i) {
        CAROM_ASSERT(moving_a[i] >= 0 || moving_b[i] >= 0);
        int a = moving_a[i] >= 0 ? moving_a[i] : reader;
        int b = moving_b[i] >= 0 ? moving_b[i] : reader;
        /* the lowest colour neither body holds, now taken by both; or the overflow */
        uint32_t free = ~(masks[a] | masks[b]) & ALL_COLORS;
        int color = free != 0 ? __builtin_ctz(free) : CAROM_OVERFLOW_COLOR;
        uint32_t bit = free != 0 ? UINT32_C(1) << color : 0u;
        masks[a] |= bit;
        masks[b] |= bit;
        masks[reader] = 0u;
        colors[i] = color;
    }
}

void carom_graph_destroy(carom_constraint_graph* graph) { arrfree(graph->body_colors); }
