/* The racing demo's track: see track.h. Everything here is plain arithmetic and sqrt (angles
 * through carom's own atan2), so the track has the same bits everywhere, as the race does. */
#include "track.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Control points of the centreline (m), counter-clockwise; the start is at (0, -60). */
static const carom_vec2 control_points[] = {
    {-120.0, -60.0}, {0.0, -60.0},    {110.0, -60.0}, {165.0, -45.0}, {185.0, 5.0},
    {165.0, 55.0},   {115.0, 70.0},   {75.0, 50.0},   {35.0, 55.0},   {5.0, 95.0},
    {-50.0, 118.0},  {-115.0, 105.0}, {-155.0, 55.0}, {-170.0, -5.0}, {-160.0, -48.0},
};
#define CONTROL_COUNT ((int)(sizeof(control_points) / sizeof(control_points[0])))
#define DENSE_PER_SEGMENT 64
#define DENSE_COUNT (CONTROL_COUNT * DENSE_PER_SEGMENT)

static const double sample_spacing = 3.0; /* target spacing of the samples (m) */
static const double lateral_grip = 7.2;   /* cornering acceleration of the speed profile */
static const double braking = 7.0;        /* braking deceleration of the speed profile */
static const double top_speed = 60.0;

static carom_vec2 catmull_rom(carom_vec2 p0, carom_vec2 p1, carom_vec2 p2, carom_vec2 p3,
                              double t) {
    double t2 = t * t, t3 = t2 * t;
    carom_vec2 r;
    r.x =
        0.5 * (2.0 * p1.x + (p2.x - p0.x) * t + (2.0 * p0.x - 5.0 * p1.x + 4.0 * p2.x - p3.x) * t2 +
               (3.0 * p1.x - p0.x - 3.0 * p2.x + p3.x) * t3);
    r.y =
        0.5 * (2.0 * p1.y + (p2.y - p0.y) * t + (2.0 * p0.y - 5.0 * p1.y + 4.0 * p2.y - p3.y) * t2 +
               (3.0 * p1.y - p0.y - 3.0 * p2.y + p3.y) * t3);
    return r;
}

/* The loop sampled densely, then resampled at equal arc lengths. */
static void sample_centerline(track* t) {
    static carom_vec2 dense[DENSE_COUNT + 1];
    static double arc[DENSE_COUNT + 1];
    for (int i = 0; i < CONTROL_COUNT; ++i) {
        carom_vec2 p0 = control_points[(i + CONTROL_COUNT - 1) % CONTROL_COUNT];
        carom_vec2 p1 = control_points[i];
        carom_vec2 p2 = control_points[(i + 1) % CONTROL_COUNT];
        carom_vec2 p3 = control_points[(i + 2) % CONTROL_COUNT];
        for (int j = 0; j < DENSE_PER_SEGMENT; ++j) {
            dense[i * DENSE_PER_SEGMENT + j] =
                catmull_rom(p0, p1, p2, p3, (double)j / DENSE_PER_SEGMENT);
        }
    }
    dense[DENSE_COUNT] = dense[0];
    arc[0] = 0.0;
    for (int i = 1; i <= DENSE_COUNT; ++i) {
        arc[i] = arc[i - 1] + carom_distance(dense[i - 1], dense[i]);
    }
    t->length = arc[DENSE_COUNT];
    t->count = (int)(t->length / sample_spacing + 0.5);
    if (t->count > TRACK_MAX_SAMPLES) {
        t->count = TRACK_MAX_SAMPLES;
    }
    t->spacing = t->length / t->count;
    int j = 0;
    for (int i = 0; i < t->count; ++i) {
        double s = i * t->spacing;
        while (arc[j + 1] < s) {
            ++j;
        }
        double u = (s - arc[j]) / (arc[j + 1] - arc[j]);
        t->center[i] = carom_lerp(dense[j], dense[j + 1], u);
    }
    for (int i = 0; i < t->count; ++i) {
        carom_vec2 d = carom_sub(t->center[track_wrap(t, i + 1)], t->center[track_wrap(t, i - 1)]);
        t->tangent[i] = carom_normalize(d);
        t->normal[i] = carom_left_perp(t->tangent[i]);
    }
}

/* Signed curvature (1/m, positive turning left) through three points (Menger). */
static double curvature(carom_vec2 a, carom_vec2 b, carom_vec2 c) {
    double cross = carom_cross(carom_sub(b, a), carom_sub(c, a));
    double product = carom_distance(a, b) * carom_distance(b, c) * carom_distance(c, a);
    return product > 0.0 ? 2.0 * cross / product : 0.0;
}

/* The racing line: each point pulled to the midpoint of its neighbours, kept inside the road,
 * sweep after sweep (an elastic band), which straightens the line and cuts the apexes. */
static void relax_racing_line(track* t) {
    double limit = t->road_half_width - 3.0;
    for (int i = 0; i < t->count; ++i) {
        t->line_offset[i] = 0.0;
        t->line[i] = t->center[i];
    }
    for (int sweep = 0; sweep < 600; ++sweep) {
        for (int i = 0; i < t->count; ++i) {
            carom_vec2 mid =
                carom_lerp(t->line[track_wrap(t, i - 1)], t->line[track_wrap(t, i + 1)], 0.5);
            double e = carom_dot(carom_sub(mid, t->center[i]), t->normal[i]);
            e = e > limit ? limit : (e < -limit ? -limit : e);
            t->line_offset[i] = e;
            t->line[i] = carom_mul_add(t->center[i], e, t->normal[i]);
        }
    }
}

/* Highest speed the corner ahead allows at each point: sqrt(a / curvature), then, going
 * backwards round the loop twice, no faster than can brake down to the next point's speed. */
static void speed_profile(track* t) {
    for (int i = 0; i < t->count; ++i) {
        double k = fabs(
            curvature(t->line[track_wrap(t, i - 3)], t->line[i], t->line[track_wrap(t, i + 3)]));
        double v = k > 0.0 ? sqrt(lateral_grip / k) : top_speed;
        t->line_speed[i] = v < top_speed ? v : top_speed;
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = t->count - 1; i >= 0; --i) {
            int next = track_wrap(t, i + 1);
            double ds = carom_distance(t->line[i], t->line[next]);
            double reachable = sqrt(t->line_speed[next] * t->line_speed[next] + 2.0 * braking * ds);
            if (reachable < t->line_speed[i]) {
                t->line_speed[i] = reachable;
            }
        }
    }
}

int track_nearest(const track* t, carom_vec2 p, int hint, int window) {
    int best = 0;
    double best_distance = INFINITY;
    int first = hint < 0 ? 0 : hint - window;
    int last = hint < 0 ? t->count - 1 : hint + window;
    for (int k = first; k <= last; ++k) {
        int i = track_wrap(t, k);
        double d = carom_distance_squared(p, t->center[i]);
        if (d < best_distance) {
            best_distance = d;
            best = i;
        }
    }
    return best;
}

static carom_vec2 edge(const track* t, int i, double offset) {
    return carom_mul_add(t->center[track_wrap(t, i)], offset, t->normal[track_wrap(t, i)]);
}

static int build_walls(track* t) {
    carom_shape_def wall = carom_default_shape_def();
    wall.friction = 0.25;
    wall.restitution = 0.3;
    wall.filter.category = CAT_WALL;
    wall.filter.mask = CAT_CAR;
    static carom_vec2 points[TRACK_MAX_SAMPLES];
    for (int side = -1; side <= 1; side += 2) {
        for (int i = 0; i < t->count; ++i) {
            points[i] = edge(t, i, side * t->wall_offset);
        }
        if (carom_create_chain(t->ground, &wall, points, t->count, 1, NULL) != CAROM_OK) {
            fprintf(stderr, "racing: track wall: %s\n", carom_last_error());
            return -1;
        }
    }
    return 0;
}

/* A static sensor quad between two offsets over samples [i, j], marking a surface. */
static int surface_quad(track* t, int i, int j, double from, double to, double grip) {
    carom_vec2 corners[4] = {edge(t, i, from), edge(t, j, from), edge(t, j, to), edge(t, i, to)};
    carom_polygon polygon;
    if (carom_make_polygon(corners, 4, &polygon) != CAROM_OK) {
        fprintf(stderr, "racing: surface quad at sample %d: %s\n", i, carom_last_error());
        return -1;
    }
    carom_shape_def def = carom_default_shape_def();
    def.is_sensor = 1;
    def.surface_grip = grip;
    def.filter.category = CAT_SURFACE;
    def.filter.mask = CAT_SURFACE_READER;
    return carom_shape_is_valid(carom_create_polygon_shape(t->ground, &def, &polygon)) ? 0 : -1;
}

static int build_surfaces(track* t) {
    /* grass verges between the road's edges and the walls, one quad per two samples */
    for (int i = 0; i < t->count; i += 2) {
        int j = i + 2 <= t->count ? i + 2 : t->count;
        for (int side = -1; side <= 1; side += 2) {
            double a = side * t->road_half_width, b = side * (t->wall_offset + 0.5);
            if (surface_quad(t, i, j, a, b, t->grass_grip) != 0) {
                return -1;
            }
        }
    }
    /* ice on the right half of the start straight, 60 m to 84 m after the line */
    t->ice_first = track_wrap(t, t->start_sample + (int)(60.0 / t->spacing));
    t->ice_last = track_wrap(t, t->start_sample + (int)(84.0 / t->spacing));
    t->ice[0] = edge(t, t->ice_first, -t->road_half_width);
    t->ice[1] = edge(t, t->ice_last, -t->road_half_width);
    t->ice[2] = edge(t, t->ice_last, 0.5);
    t->ice[3] = edge(t, t->ice_first, 0.5);
    return surface_quad(t, t->ice_first, t->ice_last, -t->road_half_width, 0.5, t->ice_grip);
}

static int build_checkpoints(track* t) {
    carom_shape_def def = carom_default_shape_def();
    def.is_sensor = 1;
    def.filter.category = CAT_CHECKPOINT;
    def.filter.mask = CAT_CAR;
    for (int k = 0; k < TRACK_CHECKPOINTS; ++k) {
        int i = track_wrap(t, t->start_sample + k * t->count / TRACK_CHECKPOINTS);
        t->checkpoint_sample[k] = i;
        double angle = carom_atan2(t->tangent[i].y, t->tangent[i].x);
        t->checkpoint[k] =
            carom_create_box_shape(t->ground, &def, 0.5, t->wall_offset, t->center[i], angle);
        if (!carom_shape_is_valid(t->checkpoint[k])) {
            fprintf(stderr, "racing: checkpoint %d: %s\n", k, carom_last_error());
            return -1;
        }
    }
    return 0;
}

int track_build(track* t, carom_world_id world) {
    memset(t, 0, sizeof(*t));
    t->road_half_width = 7.0;
    t->wall_offset = 10.0;
    t->grass_grip = 0.6;
    t->ice_grip = 0.1;
    sample_centerline(t);
    relax_racing_line(t);
    speed_profile(t);
    t->start_sample = track_nearest(t, carom_v2(0.0, -60.0), -1, 0);
    carom_body_def ground_def = carom_default_body_def();
    t->ground = carom_create_body(world, &ground_def);
    if (!carom_body_is_valid(t->ground)) {
        return -1;
    }
    if (build_walls(t) != 0 || build_surfaces(t) != 0 || build_checkpoints(t) != 0) {
        return -1;
    }
    return 0;
}
