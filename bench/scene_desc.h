/* An engine-neutral description of the named scenes of ../shared/bench-scenes.md, and of the
 * joint-free scenes of Box2D v3's own benchmark program (its large_pyramid, many_pyramids and
 * smash, re-described here from what they build, in our own code): every wall,
 * every body, its pose, velocity and material, as plain numbers. carom_scene_build() builds
 * carom's worlds from it, and the peer engines of the benchmark (peer_chipmunk.c,
 * peer_box2d.cpp, peer_box2d_v3.c) build theirs from the same description, so all engines start from bit-identical
 * initial conditions (same jitter, same random angles and velocities) without a second copy of
 * the placement formulas. Plain C with no carom types, so the C++ peer can include it. */
#ifndef CAROM_SCENE_DESC_H
#define CAROM_SCENE_DESC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum carom_scene_kind {
    CAROM_SCENE_RAIN,    /* N balls falling into an open box */
    CAROM_SCENE_PYRAMID, /* a pyramid of unit boxes, N boxes in the bottom row */
    CAROM_SCENE_ARENA,   /* N top-down cars in a walled square, zero gravity */
    CAROM_SCENE_STACK,   /* a column of N unit boxes */
    /* Box2D v3's benchmark scenes (the names of its benchmark program). Each is specified at
     * one size; N scales it, and the size Box2D runs is given. */
    CAROM_SCENE_LARGE_PYRAMID, /* the pyramid of unit boxes with N in the bottom row on a
                                  200 m wide ground; Box2D runs N = 100 (5,050 boxes) */
    CAROM_SCENE_MANY_PYRAMIDS, /* N rows of N pyramids of 10-box base, each row of pyramids on
                                  its own ground segment; Box2D runs N = 20 (22,000 boxes) */
    CAROM_SCENE_SMASH          /* no gravity: an 8 m box at 40 m/s into a block of N rows and
                                  3N/2 columns of 0.4 m boxes created asleep; Box2D runs N = 80
                                  (9,600 boxes) */
} carom_scene_kind;

/* CAROM_SCENE_SEGMENT is for walls only. */
typedef enum carom_scene_shape {
    CAROM_SCENE_CIRCLE,
    CAROM_SCENE_BOX,
    CAROM_SCENE_SEGMENT
} carom_scene_shape;

/* A static box or two-sided segment. All of a scene's walls belong to one static body at the
 * origin. Restitution 0, density irrelevant. */
typedef struct carom_scene_wall {
    carom_scene_shape shape;        /* CAROM_SCENE_BOX or CAROM_SCENE_SEGMENT */
    double x, y;                    /* box: center, world frame (m) */
    double half_width, half_height; /* box (m) */
    double x1, y1, x2, y2;          /* segment: its two end points, world frame (m) */
    double friction;
} carom_scene_wall;

/* A dynamic body with one shape centered on its origin, so origin = center of mass. */
typedef struct carom_scene_body {
    carom_scene_shape shape;
    double radius;                  /* circle (m) */
    double half_width, half_height; /* box (m), unrotated in the body frame */
    double x, y;                    /* world position (m) */
    double angle;                   /* rad */
    double vx, vy;                  /* linear velocity (m/s) */
    double linear_damping, angular_damping; /* 1/s, carom's and Box2D's meaning */
    double density;                 /* kg/m² */
    double friction;                /* a pair uses the geometric mean (carom, Box2D) */
    double restitution;             /* a pair uses the larger one (carom, Box2D) */
    int asleep;                     /* non-zero: created asleep, at rest, woken by a touch (an
                                       engine that sleeps); 0 (awake) for most scenes */
} carom_scene_body;

#define CAROM_SCENE_MAX_WALLS 32
/* The most dynamic bodies a description holds: a larger size is refused. */
#define CAROM_SCENE_MAX_BODIES 4000000

typedef struct carom_scene_desc {
    carom_scene_kind kind;
    int size;  /* N, or B for the pyramid */
    int steps; /* steps of dt = 1/60 s the scene is specified with: 600 for the scenes of
                  bench-scenes.md, Box2D's own counts for its scenes */
    double gravity_x, gravity_y; /* m/s² */
    int wall_count;
    carom_scene_wall walls[CAROM_SCENE_MAX_WALLS];
    int body_count;
    carom_scene_body* bodies; /* body_count entries, in creation order; malloc'ed */
    /* Where the walls keep body centers: a center outside this box after the run means the body
     * escaped (tunneled or was thrown out). The rain's container is open at the top. */
    double inside_min_x, inside_min_y, inside_max_x, inside_max_y;
} carom_scene_desc;

/* Describe the scene of size n (fixed seeds: always the same scene). Returns 0, or -1 if n < 1,
 * the scene would have more than CAROM_SCENE_MAX_BODIES bodies or memory ran out. Release with
 * carom_scene_desc_free() (harmless after a failure). */
int carom_scene_describe(carom_scene_kind kind, int n, carom_scene_desc* out);
void carom_scene_desc_free(carom_scene_desc* desc);

#ifdef __cplusplus
}
#endif

#endif
