/* carom: joints: constraints that tie two bodies together (or one body to a point of the world).
 *
 * Kinds: revolute (a hinge), prismatic (a slider), distance (a rod, rope or spring between two
 * points), weld (glue), wheel (a suspension: sliding along an axis on a spring, turning freely),
 * motor (drives one body to an offset from another, with limited force and torque) and mouse
 * (pulls a point of one body towards a target, for tools and demos).
 *
 * Every joint is a soft constraint solved with the contacts in each substep of the step (docs/
 * solver.md): it pulls its bodies back together like a stiff spring of the world's joint_hertz
 * and joint_damping_ratio (carom_world_def), so a joint under load stretches a little and
 * never explodes; limits stop motion like contacts do. Springs and motors of a joint are its own
 * settings, below.
 *
 * Creation: anchors and axes are given in world coordinates, at the bodies' poses when the joint
 * is created; the joint keeps them in the bodies' frames from then on. Angles of a joint are
 * measured from the relative angle of its bodies at creation (0 there), counter-clockwise: the
 * angle of body B minus that of body A. Start every def from its carom_default_*_joint_def();
 * creation refuses a hand-built def (CAROM_ERROR_INVALID_DEF), a stale body id, two bodies of
 * different worlds, a body joined to itself, a joint that could move nothing (neither body
 * dynamic), a call during a step, and any value out of its range below, each with a message.
 *
 * Lifetime: a joint is destroyed by carom_destroy_joint, with either of its bodies, with its
 * world, or when it breaks (break_force, break_torque). Ids of destroyed joints are refused
 * (CAROM_ERROR_INVALID_ID). Creating or destroying a joint wakes its bodies.
 *
 * Sleep: bodies joined by joints form one island, so a jointed pile sleeps and wakes as one.
 *
 * Units: SI (m, kg, s, rad, N, N·m, Hz). */
#ifndef CAROM_JOINT_H
#define CAROM_JOINT_H

#include "base.h"
#include "id.h"
#include "math.h"

typedef enum carom_joint_type {
    CAROM_JOINT_REVOLUTE = 0,
    CAROM_JOINT_PRISMATIC = 1,
    CAROM_JOINT_DISTANCE = 2,
    CAROM_JOINT_WELD = 3,
    CAROM_JOINT_WHEEL = 4,
    CAROM_JOINT_MOTOR = 5,
    CAROM_JOINT_MOUSE = 6
} carom_joint_type;

/* The shortest distance joint (m): below it the direction between the anchors is undefined. */
#define CAROM_MIN_JOINT_LENGTH 1e-3

/* The fastest speed (m/s) at which a joint pulled apart along a length (a hinge's or a weld's
 * anchors, a rod, a slider's cross axis, a limit on a length) is pulled back together. Far above
 * what a joint under load or hit needs (a 100 x 100 grid of hinges falling from seven pins never
 * reaches it), it keeps a joint pulled absurdly far apart on a long lever from being corrected at
 * tens of km/s, which spun its bodies faster than the substeps follow. */
#define CAROM_JOINT_MAX_CORRECTION_SPEED 100.0

/* Fields every def has (each def repeats them, so a def is one flat struct):
 *   int collide_connected;  non-zero: the two bodies still collide with each other, default 0
 *                           (creating the joint then removes their contacts)
 *   double break_force;     the joint breaks (is destroyed, reporting a joint event) after a
 *                           step in which its reaction force exceeded this (N, >= 0); 0: never,
 *                           default 0
 *   double break_torque;    likewise for its reaction torque (N·m, >= 0); 0: never, default 0
 *   void* user_data;        yours, default NULL
 *   int internal_cookie;    set by the default constructor; do not touch */

/* A hinge: body B turns about a point fixed in both bodies. */
typedef struct carom_revolute_joint_def {
    carom_vec2 anchor;       /* the hinge point, world frame at creation (m), default (0, 0) */
    int enable_limit;        /* non-zero: the angle stays within [lower_angle, upper_angle],
                                default 0 */
    double lower_angle;      /* rad, in [-pi, upper_angle], default 0. The angle is measured
                                from the relative angle at creation and wraps at +-pi, so a
                                limit cannot span more than a full turn */
    double upper_angle;      /* rad, in [lower_angle, pi], default 0 */
    int enable_motor;        /* non-zero: drives the angular velocity of B relative to A
                                towards motor_speed, default 0 */
    double motor_speed;      /* rad/s, default 0 */
    double max_motor_torque; /* the most torque the motor applies (N·m, >= 0), default 0 */
    int enable_spring;       /* non-zero: a rotational spring pulls the angle towards 0,
                                default 0 */
    double hertz;            /* the spring's frequency (Hz, >= 0; 0: no spring force), default 0 */
    double damping_ratio;    /* the spring's damping ratio (>= 0; 1: critical), default 0 */
    int collide_connected;
    double break_force;
    double break_torque;
    void* user_data;
    int internal_cookie;
} carom_revolute_joint_def;

/* A slider: body B moves along an axis fixed in body A and does not turn relative to it. */
typedef struct carom_prismatic_joint_def {
    carom_vec2 anchor;        /* a point on the axis, world frame at creation (m), default
                                 (0, 0); the translation is 0 there */
    carom_vec2 axis;          /* direction of the slide, world frame at creation, turning
                                 with body A; non-zero (scaled to unit length), default
                                 (1, 0) */
    int enable_limit;         /* non-zero: the translation stays within [lower_translation,
                                 upper_translation], default 0 */
    double lower_translation; /* m, <= upper_translation, default 0 */
    double upper_translation; /* m, default 0 */
    int enable_motor;         /* non-zero: drives the speed of B along the axis, default 0 */
    double motor_speed;       /* m/s, default 0 */
    double max_motor_force;   /* N, >= 0, default 0 */
    int enable_spring;        /* non-zero: a spring pulls the translation towards 0,
                                 default 0 */
    double hertz;             /* Hz, >= 0 (0: no spring force), default 0 */
    double damping_ratio;     /* >= 0, default 0 */
    int collide_connected;
    double break_force;
    double break_torque;
    void* user_data;
    int internal_cookie;
} carom_prismatic_joint_def;

/* A rod, rope or spring between a point of each body. */
typedef struct carom_distance_joint_def {
    carom_vec2 anchor_a;  /* point of body A, world frame at creation (m), default (0, 0) */
    carom_vec2 anchor_b;  /* point of body B, world frame at creation (m), default (0, 0) */
    double length;        /* rest length (m): 0 (default) takes the distance between the anchors
                             at creation; else at least CAROM_MIN_JOINT_LENGTH */
    int enable_spring;    /* 0 (default): a rigid rod of `length`; non-zero: a spring of `hertz`
                             about `length` (a rope: hertz 0 and a limit) */
    double hertz;         /* Hz, >= 0 (0: no spring force), default 0 */
    double damping_ratio; /* >= 0, default 0 */
    int enable_limit;     /* non-zero: the distance stays within [min_length, max_length],
                             default 0 */
    double min_length;    /* m, >= 0, <= max_length, default 0 */
    double max_length;    /* m, default CAROM_MAX_MAGNITUDE */
    int collide_connected;
    double break_force;
    double break_torque; /* a distance joint has no reaction torque: only 0 is accepted */
    void* user_data;
    int internal_cookie;
} carom_distance_joint_def;

/* Glue: body B keeps its position and angle relative to body A, rigidly or on springs. */
typedef struct carom_weld_joint_def {
    carom_vec2 anchor;            /* the point the bodies are glued at, world frame at creation
                                     (m), default (0, 0): where a soft weld bends */
    double linear_hertz;          /* Hz, >= 0; 0 (default): rigid (the world's joint_hertz) */
    double linear_damping_ratio;  /* >= 0, default 0; used when linear_hertz > 0 */
    double angular_hertz;         /* Hz, >= 0; 0 (default): rigid */
    double angular_damping_ratio; /* >= 0, default 0; used when angular_hertz > 0 */
    int collide_connected;
    double break_force;
    double break_torque;
    void* user_data;
    int internal_cookie;
} carom_weld_joint_def;

/* A wheel on a suspension: body B (the wheel) slides along an axis fixed in body A (the
 * chassis) on a spring, and turns freely, or driven by a motor. */
typedef struct carom_wheel_joint_def {
    carom_vec2 anchor;        /* the wheel's axle, world frame at creation (m), default (0, 0);
                                 the spring's rest position */
    carom_vec2 axis;          /* the suspension's direction, world frame at creation, turning
                                 with body A; non-zero (scaled to unit length), default (0, 1) */
    int enable_spring;        /* non-zero (default 1): the suspension spring acts */
    double hertz;             /* Hz, >= 0, default 1 */
    double damping_ratio;     /* >= 0, default 0.7 */
    int enable_limit;         /* non-zero: the translation along the axis stays within
                                 [lower_translation, upper_translation], default 0 */
    double lower_translation; /* m, <= upper_translation, default 0 */
    double upper_translation; /* m, default 0 */
    int enable_motor;         /* non-zero: drives the wheel's spin relative to A, default 0 */
    double motor_speed;       /* rad/s, default 0 */
    double max_motor_torque;  /* N·m, >= 0, default 0 */
    int collide_connected;
    double break_force;
    double break_torque;
    void* user_data;
    int internal_cookie;
} carom_wheel_joint_def;

/* Drives body B towards a pose relative to body A with limited force and torque: friction of a
 * top-down body against the ground (A static, offsets matching), or kinematic-like control of a
 * dynamic body that still collides. The drive acts like a spring, in every pass of the solver. */
typedef struct carom_motor_joint_def {
    carom_vec2 linear_offset; /* where B's origin is driven: a point in A's body frame,
                                 relative to A's origin (m), default (0, 0) */
    double angular_offset;    /* B's angle minus A's angle that is driven to (rad, finite),
                                 default 0 */
    double max_force;         /* N, >= 0, default 1 */
    double max_torque;        /* N·m, >= 0, default 1 */
    double correction_factor; /* fraction of the pose error corrected per substep, in [0, 1];
                                 0: only the relative velocity is damped, default 0.3 */
    int collide_connected;
    double break_force;
    double break_torque;
    void* user_data;
    int internal_cookie;
} carom_motor_joint_def;

/* Pulls a point of one body towards a target, like a spring with a maximum force: dragging a
 * body with the mouse. The point grabbed is the target at creation. */
typedef struct carom_mouse_joint_def {
    carom_vec2 target;     /* world frame (m), default (0, 0) */
    double hertz;          /* the spring's frequency (Hz, > 0), default 5 */
    double damping_ratio;  /* >= 0, default 0.7 */
    double max_force;      /* N, > 0, default 1000 */
    int collide_connected; /* no other body: ignored */
    double break_force;
    double break_torque; /* a mouse joint has no reaction torque: only 0 is accepted */
    void* user_data;
    int internal_cookie;
} carom_mouse_joint_def;

/* A joint's geometry as the engine keeps it, exactly: what creation made of the def's world
 * anchors and axis. For saving a joint in a text format and creating it again bit for bit (the
 * `carom` command line's state files do): create the joint from its def, then set this frame. */
typedef struct carom_joint_frame {
    carom_vec2 local_anchor_a;    /* anchor on body A, body A frame relative to its origin (m); a
                                     mouse joint's target (world frame); a motor joint's
                                     linear_offset */
    carom_vec2 local_anchor_b;    /* anchor on body B, body B frame relative to its origin (m) */
    carom_rot reference_rotation; /* B's rotation relative to A's at angle 0: cos/sin of the
                                     angle at creation (a motor joint's angular_offset); unit */
    carom_vec2 local_axis_a;      /* prismatic and wheel joints: the axis, unit, body A frame;
                                     (1, 0) for the other kinds */
    double length;                /* distance joints: the rest length (m); 0 for the others */
} carom_joint_frame;

/* A joint broke: its reaction exceeded its break_force or break_torque in the last step. The
 * joint was destroyed at the end of that step (its id is stale); its user data is kept here. */
typedef struct carom_joint_break_event {
    carom_joint_id joint;
    carom_joint_type type;
    void* user_data;
    carom_vec2 force; /* the reaction force on body B that broke it, world frame (N) */
    double torque;    /* the reaction torque on body B (N·m) */
} carom_joint_break_event;

/* The joint events of the last step, in joint id order. The array belongs to the world and stays
 * valid until the next step. */
typedef struct carom_joint_events {
    const carom_joint_break_event* break_events;
    int break_count;
} carom_joint_events;

#ifdef __cplusplus
extern "C" {
#endif

CAROM_API carom_revolute_joint_def carom_default_revolute_joint_def(void);
CAROM_API carom_prismatic_joint_def carom_default_prismatic_joint_def(void);
CAROM_API carom_distance_joint_def carom_default_distance_joint_def(void);
CAROM_API carom_weld_joint_def carom_default_weld_joint_def(void);
CAROM_API carom_wheel_joint_def carom_default_wheel_joint_def(void);
CAROM_API carom_motor_joint_def carom_default_motor_joint_def(void);
CAROM_API carom_mouse_joint_def carom_default_mouse_joint_def(void);

/* Join body_a and body_b (of one world, at least one of them dynamic). Null id on failure. */
CAROM_API carom_joint_id carom_create_revolute_joint(carom_body_id body_a, carom_body_id body_b,
                                                     const carom_revolute_joint_def* def);
CAROM_API carom_joint_id carom_create_prismatic_joint(carom_body_id body_a, carom_body_id body_b,
                                                      const carom_prismatic_joint_def* def);
CAROM_API carom_joint_id carom_create_distance_joint(carom_body_id body_a, carom_body_id body_b,
                                                     const carom_distance_joint_def* def);
CAROM_API carom_joint_id carom_create_weld_joint(carom_body_id body_a, carom_body_id body_b,
                                                 const carom_weld_joint_def* def);
CAROM_API carom_joint_id carom_create_wheel_joint(carom_body_id body_a, carom_body_id body_b,
                                                  const carom_wheel_joint_def* def);
CAROM_API carom_joint_id carom_create_motor_joint(carom_body_id body_a, carom_body_id body_b,
                                                  const carom_motor_joint_def* def);
/* A mouse joint has one body (dynamic): it is body B, and body A is the null id. */
CAROM_API carom_joint_id carom_create_mouse_joint(carom_body_id body,
                                                  const carom_mouse_joint_def* def);

CAROM_API carom_status carom_destroy_joint(carom_joint_id joint);
/* 1 while the joint exists. */
CAROM_API int carom_joint_is_valid(carom_joint_id joint);

CAROM_API carom_joint_type carom_joint_get_type(carom_joint_id joint);
/* The null id for a mouse joint's body A. */
CAROM_API carom_body_id carom_joint_get_body_a(carom_joint_id joint);
CAROM_API carom_body_id carom_joint_get_body_b(carom_joint_id joint);
CAROM_API int carom_joint_get_collide_connected(carom_joint_id joint);
CAROM_API void* carom_joint_get_user_data(carom_joint_id joint);
CAROM_API carom_status carom_joint_set_user_data(carom_joint_id joint, void* user_data);

/* The force (N, world frame) and torque (N·m) the joint applied to body B during the last step
 * in which its bodies were awake (body A received the opposite); zero before the first step.
 * The force includes limits, motors and springs along the joint's axis. */
CAROM_API carom_vec2 carom_joint_get_reaction_force(carom_joint_id joint);
CAROM_API double carom_joint_get_reaction_torque(carom_joint_id joint);

/* The angle of body B relative to body A, from the relative angle at creation (rad, in
 * [-pi, pi]): revolute, weld and motor joints (a motor joint's from its angular_offset);
 * 0 with CAROM_ERROR_OUT_OF_RANGE recorded for other kinds. */
CAROM_API double carom_joint_get_angle(carom_joint_id joint);
/* Prismatic and wheel joints: the translation of B's anchor along the axis (m); distance joints:
 * the distance between the anchors (m); 0 with CAROM_ERROR_OUT_OF_RANGE for other kinds. */
CAROM_API double carom_joint_get_translation(carom_joint_id joint);

/* The joint's frame (see carom_joint_frame). */
CAROM_API carom_status carom_joint_get_frame(carom_joint_id joint, carom_joint_frame* out);
/* Replace the joint's frame, bit for bit as given: anchors finite, the rotation and (prismatic and
 * wheel joints) the axis unit vectors within CAROM_ROTATION_TOLERANCE, a distance joint's length
 * at least CAROM_MIN_JOINT_LENGTH and within its limit if it has one; the other kinds' axis
 * (1, 0) and length 0. Wakes the bodies. Refused during a step. */
CAROM_API carom_status carom_joint_set_frame(carom_joint_id joint, const carom_joint_frame* frame);

/* Motor speed (rad/s for revolute and wheel joints, m/s for prismatic joints; finite); wakes the
 * bodies. CAROM_ERROR_OUT_OF_RANGE for other kinds. */
CAROM_API carom_status carom_joint_set_motor_speed(carom_joint_id joint, double speed);
/* A mouse joint's target (world frame, m, finite); wakes the body. */
CAROM_API carom_status carom_mouse_joint_set_target(carom_joint_id joint, carom_vec2 target);

CAROM_API carom_joint_events carom_world_get_joint_events(carom_world_id world);

#ifdef __cplusplus
}
#endif

#endif
