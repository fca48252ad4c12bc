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
    *body = (carom_scene_body){.shape = shape, .density = 1.0, .friction = 0.6};
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

/* The steps each scene is specified with: Box2D's benchmark runs its scenes for these. */
static int scene_steps(carom_scene_kind kind) {
    switch (kind) {
    case CAROM_SCENE_LARGE_PYRAMID:
        return 500;
    case CAROM_SCENE_MANY_PYRAMIDS:
        return 200;
    case CAROM_SCENE_SMASH:
        return 300;
    default:
        return 600;
    }
}

int carom_scene_describe(carom_scene_kind kind, int n, carom_scene_desc* out) {
    *out = (carom_scene_desc){.kind = kind, .size = n, .steps = scene_steps(kind)};
    int count = carom_scene_body_count(kind, n);
    if (count < 0 || (kind == CAROM_SCENE_MANY_PYRAMIDS && n > CAROM_SCENE_MAX_WALLS)) {
        return -1;
    }
    out->gravity_y = scene_has_gravity(kind) ? -10.0 : 0.0;
    out->bodies = calloc((size_t)count, sizeof(carom_scene_body));
    if (out->bodies == NULL) {
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
    }
    return 0;
}

void carom_scene_desc_free(carom_scene_desc* desc) {
    free(desc->bodies);
    desc->bodies = NULL;
    desc->body_count = 0;
}

/* ---- Building into carom --------------------------------------------------------------------- */

static carom_body_id create_body(carom_world_id world, const carom_scene_body* b) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(b->x, b->y);
    def.angle = b->angle;
    def.linear_velocity = carom_v2(b->vx, b->vy);
    def.linear_damping = b->linear_damping;
    def.angular_damping = b->angular_damping;
    def.awake = !b->asleep;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = b->density;
    shape.friction = b->friction;
    shape.restitution = b->restitution;
    carom_shape_id id;
    if (b->shape == CAROM_SCENE_CIRCLE) {
        carom_circle circle = {{0.0, 0.0}, b->radius};
        id = carom_create_circle_shape(body, &shape, &circle);
    } else {
        id = carom_create_box_shape(body, &shape, b->half_width, b->half_height,
                                    carom_v2(0.0, 0.0), 0.0);
    }
    return CAROM_IS_NULL(id) ? (carom_body_id){0} : body;
}

int carom_scene_build_desc(carom_world_id world, const carom_scene_desc* desc,
                           carom_body_id* bodies) {
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    for (int i = 0; i < desc->wall_count; ++i) {
        const carom_scene_wall* w = &desc->walls[i];
        carom_shape_def def = carom_default_shape_def();
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
    for (int i = 0; i < desc->body_count; ++i) {
        carom_body_id body = create_body(world, &desc->bodies[i]);
        if (CAROM_IS_NULL(body)) {
            return -1;
        }
        if (bodies != NULL) {
            bodies[i] = body;
        }
    }
    return desc->body_count;
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
