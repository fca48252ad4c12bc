/* bench_box2d_v3: one timed run of a benchmark scene on Box2D v3 (protocol: bench_common.h),
 * through its public C API at the settings of Box2D's own benchmark program: one thread
 * (workerCount 1, no task system), b2World_Step(dt, 4 substeps), continuous collision on (bodies
 * are not bullets), every other world setting at b2DefaultWorldDef()'s value (contact hertz 30,
 * damping ratio 10, push speed 3 m/s), floats. --sleep on (the default) keeps the world's
 * sleeping on, as b2DefaultWorldDef() has it, and creates the scene's sleepers asleep
 * (b2BodyDef.isAwake); --sleep off turns sleeping off in the world def. The variant "no-ccd"
 * turns continuous collision off (run_bench.py does not run it by default).
 *
 * Box2D v3 is not a Debian package: this program is built only when the meson option box2d_v3
 * names a Box2D v3 tree built beside the project (docs/benchmarks.md says how). Box2D mixes
 * friction by geometric mean and restitution by maximum and damps velocities by
 * 1 / (1 + h c) each substep, as carom does, so the description maps one to one; segment walls
 * are Box2D's (two-sided) segment shapes, the loop of the spinner a Box2D chain (one-sided, as
 * all of Box2D's chains are), the joints revolute joints whose local frames are the world anchor
 * seen from each body at creation. */
#include "bench_common.h"

#include <box2d/box2d.h>

#include <stdlib.h>
#include <string.h>

/* The substeps of Box2D's benchmark program and of its samples. */
#define BOX2D_SUBSTEPS 4

typedef struct box2d_run {
    b2WorldId world;
    b2BodyId ground;  /* the static body of the walls */
    b2BodyId* bodies; /* the bodies, in description order */
} box2d_run;

static void destroy(void* world) {
    box2d_run* run = world;
    if (b2World_IsValid(run->world)) {
        b2DestroyWorld(run->world); /* frees every body and shape */
    }
    free(run->bodies);
    free(run);
}

static b2Vec2 vec(double x, double y) {
    return (b2Vec2){(float)x, (float)y};
}

/* The loop chain of the description, material as Box2D's spinner sets it. */
static void add_loop(b2BodyId ground, const carom_scene_desc* desc) {
    b2Vec2* points = malloc(sizeof(b2Vec2) * (size_t)desc->loop_point_count);
    if (points == NULL) {
        return; /* the scene is then incomplete: b2World_Step still runs, the times are moot */
    }
    for (int i = 0; i < desc->loop_point_count; ++i) {
        points[i] = vec(desc->loop_points[2 * i], desc->loop_points[2 * i + 1]);
    }
    b2SurfaceMaterial material = {0};
    material.friction = (float)desc->loop_friction;
    b2ChainDef def = b2DefaultChainDef();
    def.points = points;
    def.count = desc->loop_point_count;
    def.isLoop = true;
    def.materials = &material;
    def.materialCount = 1;
    b2CreateChain(ground, &def);
    free(points);
}

/* The walls on one static body at the origin; returns that body. */
static b2BodyId add_walls(b2WorldId world, const carom_scene_desc* desc) {
    b2BodyDef def = b2DefaultBodyDef(); /* static */
    b2BodyId ground = b2CreateBody(world, &def);
    for (int i = 0; i < desc->wall_count; ++i) {
        const carom_scene_wall* w = &desc->walls[i];
        b2ShapeDef shape = b2DefaultShapeDef();
        shape.material.friction = (float)w->friction;
        shape.material.restitution = 0.0f;
        if (w->shape == CAROM_SCENE_SEGMENT) {
            b2Segment segment = {vec(w->x1, w->y1), vec(w->x2, w->y2)};
            b2CreateSegmentShape(ground, &shape, &segment);
        } else {
            b2Polygon box = b2MakeOffsetBox((float)w->half_width, (float)w->half_height,
                                            vec(w->x, w->y), b2Rot_identity);
            b2CreatePolygonShape(ground, &shape, &box);
        }
    }
    if (desc->loop_point_count > 0) {
        add_loop(ground, desc);
    }
    return ground;
}

/* One circle or box centred at (x, y) in the body frame. */
static void add_shape(b2BodyId body, const b2ShapeDef* def, carom_scene_shape kind, double radius,
                      double half_width, double half_height, double x, double y) {
    if (kind == CAROM_SCENE_CIRCLE) {
        b2Circle circle = {vec(x, y), (float)radius};
        b2CreateCircleShape(body, def, &circle);
    } else {
        b2Polygon box = x == 0.0 && y == 0.0
                            ? b2MakeBox((float)half_width, (float)half_height)
                            : b2MakeOffsetBox((float)half_width, (float)half_height, vec(x, y),
                                              b2Rot_identity);
        b2CreatePolygonShape(body, def, &box);
    }
}

static b2BodyId add_body(b2WorldId world, const carom_scene_desc* desc,
                         const carom_scene_body* b) {
    b2BodyDef def = b2DefaultBodyDef();
    def.type = b->is_static ? b2_staticBody : b2_dynamicBody;
    def.position = (b2Pos){(float)b->x, (float)b->y};
    def.rotation = b2MakeRot((float)b->angle);
    def.linearVelocity = vec(b->vx, b->vy);
    def.linearDamping = (float)b->linear_damping;
    def.angularDamping = (float)b->angular_damping;
    def.isAwake = !b->asleep;
    def.enableSleep = !b->never_sleeps;
    b2BodyId body = b2CreateBody(world, &def);
    b2ShapeDef shape = b2DefaultShapeDef();
    shape.density = (float)b->density;
    shape.material.friction = (float)b->friction;
    shape.material.restitution = (float)b->restitution;
    shape.filter.categoryBits = b->category_bits;
    shape.filter.maskBits = b->mask_bits;
    if (b->shape != CAROM_SCENE_COMPOUND) {
        add_shape(body, &shape, b->shape, b->radius, b->half_width, b->half_height, 0.0, 0.0);
    }
    for (int i = b->first_part; i < b->first_part + b->part_count; ++i) {
        const carom_scene_part* part = &desc->parts[i];
        shape.density = (float)part->density;
        shape.material.friction = (float)part->friction;
        shape.material.restitution = (float)part->restitution;
        add_shape(body, &shape, part->shape, part->radius, part->half_width, part->half_height,
                  part->x, part->y);
    }
    return body;
}

/* The revolute joints of the description, Box2D's defaults otherwise (no limit, no spring,
 * connected bodies do not collide). */
static void add_joints(box2d_run* run, const carom_scene_desc* desc) {
    for (int i = 0; i < desc->joint_count; ++i) {
        const carom_scene_joint* j = &desc->joints[i];
        b2BodyId a = j->body_a < 0 ? run->ground : run->bodies[j->body_a];
        b2BodyId b = j->body_b < 0 ? run->ground : run->bodies[j->body_b];
        b2Pos anchor = {(float)j->anchor_x, (float)j->anchor_y};
        b2RevoluteJointDef def = b2DefaultRevoluteJointDef();
        def.base.bodyIdA = a;
        def.base.bodyIdB = b;
        def.base.localFrameA.p = b2Body_GetLocalPoint(a, anchor);
        def.base.localFrameB.p = b2Body_GetLocalPoint(b, anchor);
        def.enableMotor = j->enable_motor != 0;
        def.motorSpeed = (float)j->motor_speed;
        def.maxMotorTorque = (float)j->max_motor_torque;
        b2CreateRevoluteJoint(run->world, &def);
    }
}

static void* build(const carom_scene_desc* desc, const char* variant, int enable_sleep) {
    box2d_run* run = calloc(1, sizeof *run);
    if (run == NULL) {
        return NULL;
    }
    run->bodies = malloc(sizeof(b2BodyId) * (size_t)desc->body_count);
    if (run->bodies == NULL) {
        free(run);
        return NULL;
    }
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = vec(desc->gravity_x, desc->gravity_y);
    def.enableSleep = enable_sleep != 0;
    def.enableContinuous = strcmp(variant, "no-ccd") != 0;
    def.workerCount = 1;
    run->world = b2CreateWorld(&def);
    run->ground = add_walls(run->world, desc);
    for (int i = 0; i < desc->body_count; ++i) {
        run->bodies[i] = add_body(run->world, desc, &desc->bodies[i]);
    }
    add_joints(run, desc);
    return run;
}

static void step(void* world, double dt) {
    b2World_Step(((box2d_run*)world)->world, (float)dt, BOX2D_SUBSTEPS);
}

static void positions(void* world, const carom_scene_desc* desc, double* xy) {
    const box2d_run* run = world;
    for (int i = 0; i < desc->body_count; ++i) {
        b2Pos p = b2Body_GetPosition(run->bodies[i]);
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
    }
}

int main(int argc, char** argv) {
    static const char* const variants[] = {"default", "no-ccd", NULL};
    const bench_engine engine = {"box2d_v3", variants, build, step, positions, destroy, 1};
    return bench_main(argc, argv, &engine);
}
