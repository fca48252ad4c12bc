/* Scene builders: see scenes.h, scene_desc.h and ../shared/bench-scenes.md for the
 * specification. Each scene is first described as plain numbers (carom_scene_describe), so the
 * benchmark's peer engines get exactly the same bodies, then built into a carom world. */
#include "scenes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* xorshift64*: fixed seeds, so every build of a scene is the same scene. */
typedef struct scene_random {
    uint64_t state;
} scene_random;

static double random_unit(scene_random* r) {
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return (double)((r->state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static double random_range(scene_random* r, double lo, double hi) {
    return lo + (hi - lo) * random_unit(r);
}

/* Box2D's many_pyramids: pyramids of 10 boxes at the base. */
#define MANY_PYRAMIDS_BASE 10

/* Box2D's smash block has 3 columns for every 2 rows (120 by 80). */
static int64_t smash_columns(int64_t rows) {
    return rows + rows / 2;
}

/* The top-down scenes (the arena, and the smash, which Box2D runs without gravity). */
static int scene_has_gravity(carom_scene_kind kind) {
    return kind != CAROM_SCENE_ARENA && kind != CAROM_SCENE_SMASH;
}

carom_world_def carom_scene_world_def(carom_scene_kind kind) {
    carom_world_def def = carom_default_world_def();
    def.gravity = scene_has_gravity(kind) ? carom_v2(0.0, -10.0) : carom_v2(0.0, 0.0);
    return def;
}

/* The dynamic bodies of size n, in 64 bits: the pyramids grow with n squared. */
static int64_t body_count(carom_scene_kind kind, int64_t n) {
    switch (kind) {
    case CAROM_SCENE_PYRAMID:
    case CAROM_SCENE_LARGE_PYRAMID:
        return n * (n + 1) / 2;
    case CAROM_SCENE_MANY_PYRAMIDS:
        return n * n * (MANY_PYRAMIDS_BASE * (MANY_PYRAMIDS_BASE + 1) / 2);
    case CAROM_SCENE_SMASH:
        return 1 + n * smash_columns(n);
    case CAROM_SCENE_JOINT_GRID:
        return n * n;
    case CAROM_SCENE_SPINNER:
        return 1 + n; /* the paddle, then the stirred bodies */
    case CAROM_SCENE_TUMBLER:
        return 1 + n * n; /* the hollow square, then the block of boxes */
    default:
        return n;
    }
}

int carom_scene_body_count(carom_scene_kind kind, int n) {
    int64_t count = n < 1 ? -1 : body_count(kind, n);
    return count < 1 || count > CAROM_SCENE_MAX_BODIES ? -1 : (int)count;
}

/* ---- Descriptions ---------------------------------------------------------------------------- */

static void add_wall(carom_scene_desc* desc, double x, double y, double hx, double hy,
                     double friction) {
    desc->walls[desc->wall_count++] = (carom_scene_wall){
        .shape = CAROM_SCENE_BOX, .x = x, .y = y, .half_width = hx, .half_height = hy,
        .friction = friction};
}

static void add_segment_wall(carom_scene_desc* desc, double x1, double y1, double x2, double y2,
                             double friction) {
    desc->walls[desc->wall_count++] = (carom_scene_wall){
        .shape = CAROM_SCENE_SEGMENT, .x1 = x1, .y1 = y1, .x2 = x2, .y2 = y2,
        .friction = friction};
}

/* A body at rest with carom's default material (density 1, friction 0.6, restitution 0, no
 * damping); the scene sets the rest. */
static carom_scene_body* add_body(carom_scene_desc* desc, carom_scene_shape shape) {
    carom_scene_body* body = &desc->bodies[desc->body_count++];
    *body = (carom_scene_body){.shape = shape, .density = 1.0, .friction = 0.6,
                               .category_bits = 1, .mask_bits = ~0ull};
    return body;
}

static void set_inside(carom_scene_desc* desc, double min_x, double min_y, double max_x,
                       double max_y) {
    desc->inside_min_x = min_x;
    desc->inside_min_y = min_y;
    desc->inside_max_x = max_x;
    desc->inside_max_y = max_y;
}

static void describe_rain(carom_scene_desc* desc, int n) {
    const double spacing = 1.1;
    int columns = (int)ceil(sqrt((double)n));
    int rows = (n + columns - 1) / columns;
    double width = columns * spacing + 2.0;
    double height = rows * spacing + 4.0;
    add_wall(desc, 0.0, -0.5, 0.5 * width + 1.0, 0.5, 0.6);
    add_wall(desc, -0.5 * width - 0.5, 0.5 * height, 0.5, 0.5 * height, 0.6);
    add_wall(desc, 0.5 * width + 0.5, 0.5 * height, 0.5, 0.5 * height, 0.6);
    set_inside(desc, -0.5 * width, 0.0, 0.5 * width, 1e30);
    scene_random r = {0x5eed0001u};
    for (int i = 0; i < n; ++i) {
        int row = i / columns;
        int column = i % columns;
        carom_scene_body* body = add_body(desc, CAROM_SCENE_CIRCLE);
        body->radius = 0.5;
        body->x = -0.5 * (columns - 1) * spacing + column * spacing +
                  random_range(&r, -0.05, 0.05);
        body->y = 1.0 + row * spacing;
        body->friction = 0.6;
    }
}

static void describe_pyramid(carom_scene_desc* desc, int base) {
    add_wall(desc, 0.0, -1.0, base + 20.0, 1.0, 0.6);
    set_inside(desc, -(base + 20.0), 0.0, base + 20.0, 1e30);
    for (int row = 0; row < base; ++row) {
        int in_row = base - row;
        for (int i = 0; i < in_row; ++i) {
            carom_scene_body* body = add_body(desc, CAROM_SCENE_BOX);
            body->half_width = 0.5;
            body->half_height = 0.5;
            body->x = (i - 0.5 * (in_row - 1)) * 1.0;
            body->y = 0.5 + row * 1.0;
            body->friction = 0.6;
        }
    }
}

static void describe_arena(carom_scene_desc* desc, int n) {
    const double spacing = 3.0;
    int columns = (int)ceil(sqrt((double)n));
    double half = 0.5 * columns * spacing + 2.0;
    add_wall(desc, 0.0, -half - 0.5, half + 1.0, 0.5, 0.3);
    add_wall(desc, 0.0, half + 0.5, half + 1.0, 0.5, 0.3);
    add_wall(desc, -half - 0.5, 0.0, 0.5, half + 1.0, 0.3);
    add_wall(desc, half + 0.5, 0.0, 0.5, half + 1.0, 0.3);
    set_inside(desc, -half, -half, half, half);
    scene_random r = {0x5eed0003u};
    for (int i = 0; i < n; ++i) {
        int row = i / columns;
        int column = i % columns;
        carom_scene_body* body = add_body(desc, CAROM_SCENE_BOX);
        body->half_width = 0.5;
        body->half_height = 1.0;
        /* y's jitter is drawn before x's: the order gcc happened to choose when both were drawn
         * inside one call's argument list, whose evaluation order C leaves open (clang drew x
         * first and built another arena). Fixed so every compiler builds the recorded arena. */
        double jitter_y = random_range(&r, -0.3, 0.3);
        double jitter_x = random_range(&r, -0.3, 0.3);
        body->x = -0.5 * (columns - 1) * spacing + column * spacing + jitter_x;
        body->y = -0.5 * (columns - 1) * spacing + row * spacing + jitter_y;
        body->angle = random_range(&r, -CAROM_PI, CAROM_PI);
        double speed = random_range(&r, 0.0, 20.0);
        double heading = random_range(&r, -CAROM_PI, CAROM_PI);
        /* carom's own cosine and sine, so the velocity has the same bits on every machine. */
        carom_rot direction = carom_make_rot(heading);
        body->vx = speed * direction.c;
        body->vy = speed * direction.s;
        body->linear_damping = 0.5;
        body->angular_damping = 0.5;
        body->friction = 0.3;
        body->restitution = 0.5;
    }
}

static void describe_stack(carom_scene_desc* desc, int n) {
    add_wall(desc, 0.0, -1.0, 20.0, 1.0, 0.6);
    set_inside(desc, -20.0, 0.0, 20.0, 1e30);
    for (int i = 0; i < n; ++i) {
        carom_scene_body* body = add_body(desc, CAROM_SCENE_BOX);
        body->half_width = 0.5;
        body->half_height = 0.5;
        body->y = 0.5 + i;
        body->friction = 0.6;
    }
}

/* ---- Box2D v3's benchmark scenes -------------------------------------------------------------
 * Re-described from what Box2D's benchmark program (its shared/benchmarks.c, commit 617d32ab)
 * builds: the same sizes, positions, densities, creation order and step counts. Every shape
 * there has Box2D's default material (density 1 unless set, friction 0.6, restitution 0), which
 * is carom's default material too. */

/* One square box of half extent h, at rest, in Box2D's default material. */
static carom_scene_body* add_square(carom_scene_desc* desc, double h, double x, double y) {
    carom_scene_body* body = add_body(desc, CAROM_SCENE_BOX);
    body->half_width = h;
    body->half_height = h;
    body->x = x;
    body->y = y;
    return body;
}

/* Rows of unit boxes, each row one box shorter than the one below and centred on it: row r
 * (from 0 at the bottom) holds base - r boxes, its first centred at left + 0.5 (r + 1), the
 * others 1 m apart, at height bottom + 0.5 + r. */
static void add_pyramid_rows(carom_scene_desc* desc, int base, double left, double bottom) {
    for (int row = 0; row < base; ++row) {
        for (int i = 0; i < base - row; ++i) {
            add_square(desc, 0.5, left + 0.5 * (row + 1) + i, bottom + 0.5 + row);
        }
    }
}

/* large_pyramid: Box2D's 100-box-base pyramid (5,050 unit boxes) on a ground box 200 m by 2 m
 * whose top is y = 0. The ground stays 200 m wide up to N = 200 and grows with a wider base. */
static void describe_large_pyramid(carom_scene_desc* desc, int base) {
    double half_ground = fmax(100.0, 0.5 * base + 1.0);
    add_wall(desc, 0.0, -1.0, half_ground, 1.0, 0.6);
    set_inside(desc, -half_ground, 0.0, half_ground, 1e30);
    add_pyramid_rows(desc, base, -0.5 * base, 0.0);
}

/* many_pyramids: N shelves 11 m apart (two-sided ground segments, the lowest at y = 0), each
 * holding N pyramids of 10-box base side by side with a 1 m gap between them and 0.5 m at
 * either end; created shelf by shelf from the bottom, each shelf left to right. */
static void describe_many_pyramids(carom_scene_desc* desc, int n) {
    const double pitch = MANY_PYRAMIDS_BASE + 1.0; /* one pyramid and its gap, and the shelf gap */
    double half_width = 0.5 * n * pitch;
    for (int shelf = 0; shelf < n; ++shelf) {
        add_segment_wall(desc, -half_width, shelf * pitch, half_width, shelf * pitch, 0.6);
    }
    set_inside(desc, -half_width, 0.0, half_width, 1e30);
    for (int shelf = 0; shelf < n; ++shelf) {
        for (int column = 0; column < n; ++column) {
            add_pyramid_rows(desc, MANY_PYRAMIDS_BASE, -half_width + 0.5 + column * pitch,
                             shelf * pitch);
        }
    }
}

/* smash: no gravity. An 8 m square of density 8 starts at (-20, 0) moving at 40 m/s along x,
 * into a block of 0.4 m squares that touch their neighbours, 3N/2 columns from x = 30 by N rows
 * centred on y = 0, created asleep, column by column. Nothing holds them: escaping is moot. */
static void describe_smash(carom_scene_desc* desc, int rows) {
    const double side = 0.4;
    set_inside(desc, -1e30, -1e30, 1e30, 1e30);
    carom_scene_body* hammer = add_square(desc, 4.0, -20.0, 0.0);
    hammer->vx = 40.0;
    hammer->density = 8.0;
    int columns = (int)smash_columns(rows);
    for (int i = 0; i < columns; ++i) {
        for (int j = 0; j < rows; ++j) {
            add_square(desc, 0.5 * side, 30.0 + i * side, (j - 0.5 * rows) * side)->asleep = 1;
        }
    }
}

/* ---- Box2D v3's joint scenes ------------------------------------------------------------------
 * Re-described, as the three above, from what Box2D's benchmark program (shared/benchmarks.c,
 * commit 617d32ab) builds. Box2D creates each joint right after its body B; here the joints
 * follow the bodies, in the same order among themselves. */

static carom_scene_joint* add_joint(carom_scene_desc* desc, int body_a, int body_b, double x,
                                    double y) {
    carom_scene_joint* joint = &desc->joints[desc->joint_count++];
    *joint = (carom_scene_joint){.body_a = body_a, .body_b = body_b, .anchor_x = x,
                                 .anchor_y = y};
    return joint;
}

/* joint_grid: an n by n net of 0.4 m circles 1 m apart, column k at x = k, row i at y = -i,
 * created column by column from the top; each joined to the circle above it and to the one on
 * its left by a revolute joint half-way between them. The 7 circles in the middle of the top
 * row are static (Box2D also joins those to each other; joints between two static bodies move
 * nothing and carom refuses them, so the description leaves those 6 out). The circles are in category 2 and collide with everything but category 2:
 * with nothing here, so the scene times joints alone. Box2D turns sleeping off for it. */
static void describe_joint_grid(carom_scene_desc* desc, int n) {
    set_inside(desc, -1e30, -1e30, 1e30, 1e30); /* nothing holds the net: escaping is moot */
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < n; ++i) {
            int index = desc->body_count;
            carom_scene_body* body = add_body(desc, CAROM_SCENE_CIRCLE);
            body->radius = 0.4;
            body->x = k;
            body->y = -i;
            body->is_static = i == 0 && k >= n / 2 - 3 && k <= n / 2 + 3;
            body->never_sleeps = 1;
            body->category_bits = 2;
            body->mask_bits = ~2ull;
            if (i > 0) {
                add_joint(desc, index - 1, index, k, 0.5 - i);
            }
            if (k > 0 && !(body->is_static && desc->bodies[index - n].is_static)) {
                add_joint(desc, index - n, index, k - 0.5, -i);
            }
        }
    }
}

/* The points of Box2D's spinner drum: 360 of them on a circle of radius 40 m centred on
 * (0, 32), from its right-hand end clockwise. */
#define SPINNER_LOOP_POINTS 360

/* spinner: a closed one-sided chain (friction 0.1) holds n bodies, created in rows 0.5 m apart
 * from (-23, 2), 0.5 m apart in a row that wraps before x = 23: a 1 m by 0.5 m box, a circle of
 * radius 0.35 m and a 0.7 m square in turn (density 0.25, friction 0.1, restitution 0.1; they
 * overlap at first and push apart). A paddle, a box 1.2 m by 40.4 m with friction 0 centred at
 * (0, 12), is hinged to the ground there and turned by a motor at 5 rad/s with unlimited torque
 * (1e12 N·m);
 * it never sleeps. Two shapes differ from Box2D's, which carom does not have yet: Box2D's
 * bodies of the first kind are capsules (a 0.5 m segment of radius 0.25 m) and its paddle is a
 * 0.8 m by 40 m box rounded by 0.2 m; here each is the box of the same outline. */
static void describe_spinner(carom_scene_desc* desc, int n) {
    set_inside(desc, -40.0, -8.0, 40.0, 72.0);
    desc->loop_point_count = SPINNER_LOOP_POINTS;
    desc->loop_friction = 0.1;
    for (int i = 0; i < SPINNER_LOOP_POINTS; ++i) {
        carom_rot q = carom_make_rot(-2.0 * CAROM_PI * i / SPINNER_LOOP_POINTS);
        desc->loop_points[2 * i] = 40.0 * q.c;
        desc->loop_points[2 * i + 1] = 40.0 * q.s + 32.0;
    }
    carom_scene_body* paddle = add_square(desc, 0.6, 0.0, 12.0);
    paddle->half_height = 20.2;
    paddle->friction = 0.0;
    paddle->never_sleeps = 1;
    carom_scene_joint* motor = add_joint(desc, -1, 0, 0.0, 12.0);
    motor->enable_motor = 1;
    motor->motor_speed = 5.0;
    /* Box2D gives FLT_MAX, "unlimited"; carom refuses magnitudes above CAROM_MAX_MAGNITUDE
     * (1e12), which is as unlimited here: both engines get that. */
    motor->max_motor_torque = CAROM_MAX_MAGNITUDE;
    double x = -23.0, y = 2.0;
    for (int i = 0; i < n; ++i) {
        carom_scene_body* body;
        if (i % 3 == 1) {
            body = add_body(desc, CAROM_SCENE_CIRCLE);
            body->radius = 0.35;
        } else {
            body = add_square(desc, 0.35, 0.0, 0.0);
            if (i % 3 == 0) {
                body->half_width = 0.5;
                body->half_height = 0.25;
            }
        }
        body->x = x;
        body->y = y;
        body->density = 0.25;
        body->friction = 0.1;
        body->restitution = 0.1;
        x += 0.5;
        if (x >= 23.0) {
            x = -23.0;
            y += 0.5;
        }
    }
}

/* tumbler: a hollow 20 m square (four boxes 1 m thick, density 50) centred at (0, 10), hinged to
 * the ground at its centre and turned by a motor at 25 degrees/s with at most 1e8 N·m, holding an
 * n by n block of 0.25 m boxes 0.4 m apart, the lowest row at y = 10 - 0.2 n, the leftmost
 * column at x = -0.2 n (Box2D's default material). */
static void describe_tumbler(carom_scene_desc* desc, int n) {
    set_inside(desc, -14.5, -4.5, 14.5, 24.5); /* the square's corners reach 14.15 m */
    carom_scene_body* tumbler = add_body(desc, CAROM_SCENE_COMPOUND);
    tumbler->y = 10.0;
    tumbler->first_part = 0;
    tumbler->part_count = 4;
    static const double walls[4][4] = {
        {0.5, 10.0, 10.0, 0.0}, {0.5, 10.0, -10.0, 0.0}, {10.0, 0.5, 0.0, 10.0},
        {10.0, 0.5, 0.0, -10.0}};
    for (int i = 0; i < 4; ++i) {
        desc->parts[desc->part_count++] = (carom_scene_part){
            .shape = CAROM_SCENE_BOX, .half_width = walls[i][0], .half_height = walls[i][1],
            .x = walls[i][2], .y = walls[i][3], .density = 50.0, .friction = 0.6};
    }
    carom_scene_joint* motor = add_joint(desc, -1, 0, 0.0, 10.0);
    motor->enable_motor = 1;
    motor->motor_speed = CAROM_PI / 180.0 * 25.0;
    motor->max_motor_torque = 1e8;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            add_square(desc, 0.125, -0.2 * n + 0.4 * j, -0.2 * n + 10.0 + 0.4 * i);
        }
    }
}

/* The steps each scene is specified with: Box2D's benchmark runs its scenes for these. */
static int scene_steps(carom_scene_kind kind) {
    switch (kind) {
    case CAROM_SCENE_LARGE_PYRAMID:
        return 500;
    case CAROM_SCENE_MANY_PYRAMIDS:
        return 200;
    case CAROM_SCENE_SMASH:
        return 300;
    case CAROM_SCENE_JOINT_GRID:
    case CAROM_SCENE_SPINNER:
        return 500;
    case CAROM_SCENE_TUMBLER:
        return 750;
    default:
        return 600;
    }
}

/* The joints, parts and loop points of a joint scene of size n (the others have none): 0, or -1
 * if memory ran out. */
static int allocate_joint_parts(carom_scene_desc* desc, carom_scene_kind kind, int n) {
    int64_t joints = 0, parts = 0, loop_points = 0;
    if (kind == CAROM_SCENE_JOINT_GRID) {
        joints = 2 * (int64_t)n * (n - 1);
    } else if (kind == CAROM_SCENE_SPINNER) {
        joints = 1;
        loop_points = SPINNER_LOOP_POINTS;
    } else if (kind == CAROM_SCENE_TUMBLER) {
        joints = 1;
        parts = 4;
    }
    desc->joints = joints > 0 ? calloc((size_t)joints, sizeof(carom_scene_joint)) : NULL;
    desc->parts = parts > 0 ? calloc((size_t)parts, sizeof(carom_scene_part)) : NULL;
    desc->loop_points = loop_points > 0 ? calloc((size_t)loop_points, 2 * sizeof(double)) : NULL;
    return (joints > 0 && desc->joints == NULL) || (parts > 0 && desc->parts == NULL) ||
                   (loop_points > 0 && desc->loop_points == NULL)
               ? -1
               : 0;
}

int carom_scene_describe(carom_scene_kind kind, int n, carom_scene_desc* out) {
    *out = (carom_scene_desc){
        .kind = kind, .size = n, .steps = scene_steps(kind), .contact_events = 1};
    int count = carom_scene_body_count(kind, n);
    if (count < 0 || (kind == CAROM_SCENE_MANY_PYRAMIDS && n > CAROM_SCENE_MAX_WALLS)) {
        return -1;
    }
    out->gravity_y = scene_has_gravity(kind) ? -10.0 : 0.0;
    out->bodies = calloc((size_t)count, sizeof(carom_scene_body));
    if (out->bodies == NULL || allocate_joint_parts(out, kind, n) < 0) {
        return -1;
    }
    switch (kind) {
    case CAROM_SCENE_RAIN:
        describe_rain(out, n);
        break;
    case CAROM_SCENE_PYRAMID:
        describe_pyramid(out, n);
        break;
    case CAROM_SCENE_ARENA:
        describe_arena(out, n);
        break;
    case CAROM_SCENE_STACK:
        describe_stack(out, n);
        break;
    case CAROM_SCENE_LARGE_PYRAMID:
        describe_large_pyramid(out, n);
        break;
    case CAROM_SCENE_MANY_PYRAMIDS:
        describe_many_pyramids(out, n);
        break;
    case CAROM_SCENE_SMASH:
        describe_smash(out, n);
        break;
    case CAROM_SCENE_JOINT_GRID:
        describe_joint_grid(out, n);
        break;
    case CAROM_SCENE_SPINNER:
        describe_spinner(out, n);
        break;
    case CAROM_SCENE_TUMBLER:
        describe_tumbler(out, n);
        break;
    }
    return 0;
}

void carom_scene_desc_free(carom_scene_desc* desc) {
    free(desc->bodies);
    free(desc->parts);
    free(desc->joints);
    free(desc->loop_points);
    desc->bodies = NULL;
    desc->parts = NULL;
    desc->joints = NULL;
    desc->loop_points = NULL;
    desc->body_count = desc->part_count = desc->joint_count = desc->loop_point_count = 0;
}

int carom_scene_desc_is_plain(const carom_scene_desc* desc) {
    if (desc->joint_count > 0 || desc->part_count > 0 || desc->loop_point_count > 0) {
        return 0;
    }
    for (int i = 0; i < desc->body_count; ++i) {
        const carom_scene_body* b = &desc->bodies[i];
        if (b->is_static || b->never_sleeps || b->category_bits != 1 || b->mask_bits != ~0ull) {
            return 0;
        }
    }
    return 1;
}

/* ---- Building into carom --------------------------------------------------------------------- */

/* One circle or box of a body, centred at (x, y) in its frame. */
static carom_shape_id create_shape(carom_body_id body, const carom_shape_def* def,
                                   carom_scene_shape shape, double radius, double half_width,
                                   double half_height, double x, double y) {
    if (shape == CAROM_SCENE_CIRCLE) {
        carom_circle circle = {{x, y}, radius};
        return carom_create_circle_shape(body, def, &circle);
    }
    return carom_create_box_shape(body, def, half_width, half_height, carom_v2(x, y), 0.0);
}

static carom_body_id create_body(carom_world_id world, const carom_scene_desc* desc,
                                 const carom_scene_body* b) {
    carom_body_def def = carom_default_body_def();
    def.type = b->is_static ? CAROM_BODY_STATIC : CAROM_BODY_DYNAMIC;
    def.position = carom_v2(b->x, b->y);
    def.angle = b->angle;
    def.linear_velocity = carom_v2(b->vx, b->vy);
    def.linear_damping = b->linear_damping;
    def.angular_damping = b->angular_damping;
    def.awake = !b->asleep;
    def.enable_sleep = !b->never_sleeps;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.enable_contact_events = desc->contact_events;
    shape.density = b->density;
    shape.friction = b->friction;
    shape.restitution = b->restitution;
    shape.filter.category = b->category_bits;
    shape.filter.mask = b->mask_bits;
    if (b->shape != CAROM_SCENE_COMPOUND) {
        carom_shape_id id = create_shape(body, &shape, b->shape, b->radius, b->half_width,
                                         b->half_height, 0.0, 0.0);
        return CAROM_IS_NULL(id) ? (carom_body_id){0} : body;
    }
    for (int i = b->first_part; i < b->first_part + b->part_count; ++i) {
        const carom_scene_part* part = &desc->parts[i];
        shape.density = part->density;
        shape.friction = part->friction;
        shape.restitution = part->restitution;
        carom_shape_id id = create_shape(body, &shape, part->shape, part->radius,
                                         part->half_width, part->half_height, part->x, part->y);
        if (CAROM_IS_NULL(id)) {
            return (carom_body_id){0};
        }
    }
    return body;
}

/* The loop chain of the description, on the static body of the walls. */
static int create_loop(carom_body_id ground, const carom_scene_desc* desc) {
    carom_vec2* points = malloc(sizeof(carom_vec2) * (size_t)desc->loop_point_count);
    if (points == NULL) {
        return -1;
    }
    for (int i = 0; i < desc->loop_point_count; ++i) {
        points[i] = carom_v2(desc->loop_points[2 * i], desc->loop_points[2 * i + 1]);
    }
    carom_shape_def def = carom_default_shape_def();
    def.enable_contact_events = desc->contact_events;
    def.friction = desc->loop_friction;
    def.one_sided = 1;
    carom_status status = carom_create_chain(ground, &def, points, desc->loop_point_count, 1,
                                             NULL);
    free(points);
    return status == CAROM_OK ? 0 : -1;
}

/* The joints of the description; body index -1 is the static body of the walls. Every body is
 * created by then (bodies holds them all, even when the caller passed NULL). */
static int create_joints(carom_body_id ground, const carom_scene_desc* desc,
                         const carom_body_id* bodies) {
    for (int i = 0; i < desc->joint_count; ++i) {
        const carom_scene_joint* j = &desc->joints[i];
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.anchor = carom_v2(j->anchor_x, j->anchor_y);
        def.enable_motor = j->enable_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_torque = j->max_motor_torque;
        carom_body_id a = j->body_a < 0 ? ground : bodies[j->body_a];
        carom_body_id b = j->body_b < 0 ? ground : bodies[j->body_b];
        if (CAROM_IS_NULL(carom_create_revolute_joint(a, b, &def))) {
            return -1;
        }
    }
    return 0;
}

int carom_scene_build_desc(carom_world_id world, const carom_scene_desc* desc,
                           carom_body_id* bodies) {
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    for (int i = 0; i < desc->wall_count; ++i) {
        const carom_scene_wall* w = &desc->walls[i];
        carom_shape_def def = carom_default_shape_def();
        def.enable_contact_events = desc->contact_events;
        def.friction = w->friction;
        carom_shape_id shape;
        if (w->shape == CAROM_SCENE_SEGMENT) {
            carom_segment segment = {carom_v2(w->x1, w->y1), carom_v2(w->x2, w->y2)};
            shape = carom_create_segment_shape(ground, &def, &segment);
        } else {
            shape = carom_create_box_shape(ground, &def, w->half_width, w->half_height,
                                           carom_v2(w->x, w->y), 0.0);
        }
        if (CAROM_IS_NULL(shape)) {
            return -1;
        }
    }
    if (desc->loop_point_count > 0 && create_loop(ground, desc) < 0) {
        return -1;
    }
    /* The joints name bodies by index: keep every id while they are made. */
    carom_body_id* ids = bodies;
    if (ids == NULL && desc->joint_count > 0) {
        ids = malloc(sizeof(carom_body_id) * (size_t)desc->body_count);
        if (ids == NULL) {
            return -1;
        }
    }
    int status = 0;
    for (int i = 0; i < desc->body_count && status == 0; ++i) {
        carom_body_id body = create_body(world, desc, &desc->bodies[i]);
        status = CAROM_IS_NULL(body) ? -1 : 0;
        if (ids != NULL) {
            ids[i] = body;
        }
    }
    if (status == 0) {
        status = create_joints(ground, desc, ids);
    }
    if (ids != bodies) {
        free(ids);
    }
    return status < 0 ? -1 : desc->body_count;
}

int carom_scene_build(carom_world_id world, carom_scene_kind kind, int n, carom_body_id* bodies) {
    carom_scene_desc desc;
    if (carom_scene_describe(kind, n, &desc) < 0) {
        return -1;
    }
    int count = carom_scene_build_desc(world, &desc, bodies);
    carom_scene_desc_free(&desc);
    return count;
}
