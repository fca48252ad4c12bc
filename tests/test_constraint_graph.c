/* The constraint graph: colours that never share a moving body, deterministic, with an
 * overflow for bodies in more constraints than there are colours. */
#include "helpers.h"

#include "constraint_graph.h"
#include "ds.h"

#include <criterion/criterion.h>
#include <string.h>

/* A fixed pseudo-random constraint list over `states` bodies, some constraints against a static
 * body (-1 on one side). */
static int make_constraints(int count, int states, int* a, int* b, uint32_t seed) {
    for (int i = 0; i < count; ++i) {
        seed = seed * 1664525u + 1013904223u;
        a[i] = (int)((seed >> 8) % (uint32_t)states);
        seed = seed * 1664525u + 1013904223u;
        b[i] = (seed >> 28) < 3 ? -1 : (int)((seed >> 8) % (uint32_t)states);
        if (b[i] == a[i]) {
            b[i] = -1;
        }
    }
    return count;
}

Test(constraint_graph, no_colour_holds_two_constraints_that_move_the_same_body) {
    enum { COUNT = 3000, STATES = 400 };
    static int a[COUNT], b[COUNT], colors[COUNT];
    make_constraints(COUNT, STATES, a, b, 7u);
    carom_constraint_graph graph;
    memset(&graph, 0, sizeof(graph));
    carom_graph_color(&graph, a, b, COUNT, STATES, colors);
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        static int owner[STATES];
        for (int s = 0; s < STATES; ++s) {
            owner[s] = -1;
        }
        for (int i = 0; i < COUNT; ++i) {
            if (colors[i] != c) {
                continue;
            }
            const int bodies[2] = {a[i], b[i]};
            for (int e = 0; e < 2; ++e) {
                if (bodies[e] < 0) {
                    continue;
                }
                cr_assert_eq(owner[bodies[e]], -1, "colour %d: constraints %d and %d share body %d",
                             c, owner[bodies[e]], i, bodies[e]);
                owner[bodies[e]] = i;
            }
        }
    }
    carom_graph_destroy(&graph);
}

Test(constraint_graph, each_constraint_takes_the_lowest_colour_its_bodies_do_not_hold_yet) {
    /* the greedy rule, checked against the constraints before each one */
    enum { COUNT = 1000, STATES = 100 };
    static int a[COUNT], b[COUNT], colors[COUNT];
    make_constraints(COUNT, STATES, a, b, 11u);
    carom_constraint_graph graph;
    memset(&graph, 0, sizeof(graph));
    carom_graph_color(&graph, a, b, COUNT, STATES, colors);
    for (int i = 0; i < COUNT; ++i) {
        bool held[CAROM_GRAPH_COLORS + 1] = {false};
        for (int j = 0; j < i; ++j) {
            bool shares = (a[i] >= 0 && (a[j] == a[i] || b[j] == a[i])) ||
                          (b[i] >= 0 && (a[j] == b[i] || b[j] == b[i]));
            held[colors[j]] |= shares;
        }
        int lowest = 0;
        while (lowest < CAROM_GRAPH_COLORS && held[lowest]) {
            ++lowest;
        }
        cr_assert_eq(colors[i], lowest, "constraint %d: colour %d, the lowest free is %d", i,
                     colors[i], lowest);
    }
    carom_graph_destroy(&graph);
}

Test(constraint_graph, a_body_in_more_constraints_than_colours_sends_the_rest_to_the_overflow) {
    /* one hub body in 30 constraints, each with its own other body */
    enum { COUNT = 30 };
    int a[COUNT], b[COUNT], colors[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        a[i] = 0;
        b[i] = i + 1;
    }
    carom_constraint_graph graph;
    memset(&graph, 0, sizeof(graph));
    carom_graph_color(&graph, a, b, COUNT, COUNT + 1, colors);
    for (int i = 0; i < COUNT; ++i) {
        cr_assert_eq(colors[i], i < CAROM_GRAPH_COLORS ? i : CAROM_OVERFLOW_COLOR,
                     "constraint %d: colour %d", i, colors[i]);
    }
    carom_graph_destroy(&graph);
}

Test(constraint_graph, bodies_that_are_only_read_hold_no_colour) {
    /* 50 constraints of different moving bodies against one static body (-1): one colour */
    enum { COUNT = 50 };
    int a[COUNT], b[COUNT], colors[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        a[i] = -1;
        b[i] = i;
    }
    carom_constraint_graph graph;
    memset(&graph, 0, sizeof(graph));
    carom_graph_color(&graph, a, b, COUNT, COUNT, colors);
    for (int i = 0; i < COUNT; ++i) {
        cr_assert_eq(colors[i], 0);
    }
    carom_graph_destroy(&graph);
}
