/* An engine-neutral description of the named scenes of ../shared/bench-scenes.md, and of six
 * scenes of Box2D v3's own benchmark program (its large_pyramid, many_pyramids and smash, and
 * the joint scenes joint_grid, spinner and tumbler, re-described here from what they build, in
 * our own code): every wall, every body, its pose, velocity and material, every joint, as plain
 * numbers. carom_scene_build() builds
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
    CAROM_SCENE_SMASH,         /* no gravity: an 8 m box at 40 m/s into a block of N rows and
                                  3N/2 columns of 0.4 m boxes created asleep; Box2D runs N = 80
                                  (9,600 boxes) */
    /* Box2D v3's joint scenes. Only engines with revolute joints, compound bodies and chains
     * build them (carom_scene_desc_is_plain() tells the others apart). */
    CAROM_SCENE_JOINT_GRID,    /* an N by N net of circles, neighbours joined by revolute
                                  joints, hanging from 7 static circles in its top row; nothing
                                  collides and nothing sleeps; Box2D runs N = 100 */
    CAROM_SCENE_SPINNER,       /* N small bodies in a drum (a loop chain of radius 40 m) stirred
                                  by a 40 m paddle a revolute motor turns at 5 rad/s; Box2D runs
                                  N = 6076 */
    CAROM_SCENE_TUMBLER        /* an N by N block of 0.25 m boxes in a 20 m hollow square a
                                  revolute motor turns at 25 degrees/s; Box2D runs N = 45 */
} carom_scene_kind;

/* CAROM_SCENE_SEGMENT is for walls only, CAROM_SCENE_COMPOUND for bodies only. */
typedef enum carom_scene_shape {
    CAROM_SCENE_CIRCLE,
    CAROM_SCENE_BOX,
    CAROM_SCENE_SEGMENT,
    CAROM_SCENE_COMPOUND /* a body made of several shapes: its parts (carom_scene_part) */
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

/* A body with one shape centered on its origin, so origin = center of mass; or a compound body
 * whose parts are placed symmetrically about its origin, which is then its center of mass too.
 * Dynamic, except the static bodies of the joint grid (is_static). */
typedef struct carom_scene_body {
    carom_scene_shape shape;        /* circle, box, or compound: the parts first_part to
                                       first_part + part_count - 1 of the description */
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
    int is_static;                  /* non-zero: a static body (it never moves) */
    int never_sleeps;               /* non-zero: the body never sleeps, nor its island (carom
                                       enable_sleep = 0, Box2D enableSleep = false) */
    unsigned long long category_bits, mask_bits; /* collision filter, as carom's and Box2D's
                                       (collide when each one's category is in the other's mask):
                                       1 and all bits unless the scene says otherwise */
    int first_part, part_count;     /* a compound body's parts (index into the parts) */
} carom_scene_body;

/* One shape of a compound body, with its own material. */
typedef struct carom_scene_part {
    carom_scene_shape shape;        /* CAROM_SCENE_CIRCLE or CAROM_SCENE_BOX */
    double radius;                  /* circle (m) */
    double half_width, half_height; /* box (m), unrotated in the body frame */
    double x, y;                    /* center, body frame (m) */
    double density, friction, restitution;
} carom_scene_part;

/* A revolute joint (a hinge) between two bodies of the description. The joint scenes leave every
 * other setting at the engines' defaults: no limit, no spring, connected bodies do not collide. */
typedef struct carom_scene_joint {
    int body_a, body_b;       /* indexes into the bodies; -1: the static body of the walls */
    double anchor_x, anchor_y; /* the hinge, world frame at creation (m) */
    int enable_motor;         /* non-zero: drives B's angular velocity relative to A */
    double motor_speed;       /* rad/s */
    double max_motor_torque;  /* N·m */
} carom_scene_joint;

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
    int part_count;
    carom_scene_part* parts;  /* the compound bodies' shapes; malloc'ed, or NULL */
    int joint_count;
    carom_scene_joint* joints; /* created after all bodies, in this order; malloc'ed, or NULL */
    /* A closed chain on the static body of the walls, one-sided: the points (x then y, m) wound
     * clockwise, so the chain is solid on its inside (the right side of each segment). 0 points:
     * none. */
    int loop_point_count;
    double* loop_points;      /* 2 * loop_point_count values; malloc'ed, or NULL */
    double loop_friction;
    /* Where the walls keep body centers: a center outside this box after the run means the body
     * escaped (tunneled or was thrown out). The rain's container is open at the top. */
    double inside_min_x, inside_min_y, inside_max_x, inside_max_y;
    /* Non-zero: every shape reports when its contacts begin and end touching (carom's default,
     * carom_shape_def.enable_contact_events; Box2D v3's enableContactEvents). carom_scene_describe
     * sets it; the benchmark clears it for every engine (bench_common.c), as its peers report
     * none at their defaults. */
    int contact_events;
} carom_scene_desc;

/* Describe the scene of size n (fixed seeds: always the same scene). Returns 0, or -1 if n < 1,
 * the scene would have more than CAROM_SCENE_MAX_BODIES bodies or memory ran out. Release with
 * carom_scene_desc_free() (harmless after a failure). */
int carom_scene_describe(carom_scene_kind kind, int n, carom_scene_desc* out);
void carom_scene_desc_free(carom_scene_desc* desc);
/* Non-zero if the description uses none of what the joint scenes add (joints, compound or
 * static bodies, collision filters, bodies that never sleep, a loop chain): what a peer without
 * them can build exactly. */
int carom_scene_desc_is_plain(const carom_scene_desc* desc);

#ifdef __cplusplus
}
#endif

#endif
