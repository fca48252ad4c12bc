/* bench_box2d_v3: one timed run of a benchmark scene on Box2D v3 (protocol: bench_common.h),
 * through its public C API at the settings of Box2D's own benchmark program: one thread
 * (workerCount 1, no task system) unless --threads T asks for more, b2World_Step(dt, 4
 * substeps), continuous collision on (bodies
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

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The substeps of Box2D's benchmark program and of its samples. */
#define BOX2D_SUBSTEPS 4

/* ---- The task system behind Box2D v3's enqueueTask and finishTask (--threads T) -------------
 * T - 1 threads and the stepping thread take tasks from one queue; a thread waiting in
 * finishTask runs queued tasks meanwhile. Box2D may have several tasks out at once (its solver
 * enqueues one per worker and synchronises them itself), so every task is queued, none run
 * inline. Idle threads spin, then yield, then sleep, as carom's own pool does, so that both
 * engines get the same kind of threads. */

#define QUEUE_CAPACITY 1024 /* tasks in flight at once: Box2D has at most 128 per step */
#define MAX_THREADS 32      /* Box2D v3's B2_MAX_WORKERS, which its public headers do not export */
#define SPIN_ITERATIONS 4096
#define YIELD_ITERATIONS 1024 /* as carom's pool (engine/task.c says why) */

typedef struct queued_task {
    b2TaskCallback* fn;
    void* context;
    atomic_int done;
} queued_task;

typedef struct task_system {
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    queued_task slots[QUEUE_CAPACITY];
    int head, tail;    /* under mutex: queued tasks are slots[head..tail) modulo capacity */
    atomic_int queued; /* tail - head, readable without the mutex */
    int sleepers;      /* under mutex */
    atomic_bool shutdown;
    int thread_count;
    pthread_t threads[MAX_THREADS];
} task_system;

/* The next queued task, or NULL. */
static queued_task* take_task(task_system* system) {
    queued_task* task = NULL;
    pthread_mutex_lock(&system->mutex);
    if (system->head != system->tail) {
        task = &system->slots[system->head % QUEUE_CAPACITY];
        system->head += 1;
        atomic_fetch_sub(&system->queued, 1);
    }
    pthread_mutex_unlock(&system->mutex);
    return task;
}

static void run_task(queued_task* task) {
    task->fn(task->context);
    atomic_store(&task->done, 1);
}

static void* task_thread(void* argument) {
    task_system* system = argument;
    while (!atomic_load(&system->shutdown)) {
        for (int i = 0; i < SPIN_ITERATIONS + YIELD_ITERATIONS &&
                        atomic_load(&system->queued) == 0 && !atomic_load(&system->shutdown);
             ++i) {
            if (i >= SPIN_ITERATIONS) {
                sched_yield();
            }
        }
        queued_task* task = take_task(system);
        if (task != NULL) {
            run_task(task);
            continue;
        }
        pthread_mutex_lock(&system->mutex);
        system->sleepers += 1;
        while (system->head == system->tail && !atomic_load(&system->shutdown)) {
            pthread_cond_wait(&system->wake, &system->mutex);
        }
        system->sleepers -= 1;
        pthread_mutex_unlock(&system->mutex);
    }
    return NULL;
}

static void* enqueue_task(b2TaskCallback* fn, void* context, void* user_context) {
    task_system* system = user_context;
    pthread_mutex_lock(&system->mutex);
    queued_task* task = &system->slots[system->tail % QUEUE_CAPACITY];
    task->fn = fn;
    task->context = context;
    atomic_store(&task->done, 0);
    system->tail += 1;
    atomic_fetch_add(&system->queued, 1);
    if (system->sleepers > 0) {
        pthread_cond_signal(&system->wake);
    }
    pthread_mutex_unlock(&system->mutex);
    return task;
}

static void finish_task(void* user_task, void* user_context) {
    task_system* system = user_context;
    queued_task* task = user_task;
    while (!atomic_load(&task->done)) {
        queued_task* other = take_task(system);
        if (other != NULL) {
            run_task(other);
        } else {
            sched_yield();
        }
    }
}

static task_system* start_task_system(int threads) {
    task_system* system = calloc(1, sizeof *system);
    if (system == NULL) {
        return NULL;
    }
    pthread_mutex_init(&system->mutex, NULL);
    pthread_cond_init(&system->wake, NULL);
    for (int i = 0; i < threads - 1; ++i) {
        if (pthread_create(&system->threads[i], NULL, task_thread, system) != 0) {
            break;
        }
        system->thread_count += 1;
    }
    return system;
}

static void stop_task_system(task_system* system) {
    if (system == NULL) {
        return;
    }
    pthread_mutex_lock(&system->mutex);
    atomic_store(&system->shutdown, true);
    pthread_cond_broadcast(&system->wake);
    pthread_mutex_unlock(&system->mutex);
    for (int i = 0; i < system->thread_count; ++i) {
        pthread_join(system->threads[i], NULL);
    }
    pthread_cond_destroy(&system->wake);
    pthread_mutex_destroy(&system->mutex);
    free(system);
}

/* ---- The benchmark ------------------------------------------------------------------------- */

typedef struct box2d_run {
    b2WorldId world;
    b2BodyId ground;    /* the static body of the walls */
    b2BodyId* bodies;   /* the bodies, in description order */
    task_system* tasks; /* NULL with one thread */
} box2d_run;

static void destroy(void* world) {
    box2d_run* run = world;
    if (b2World_IsValid(run->world)) {
        b2DestroyWorld(run->world); /* frees every body and shape */
    }
    stop_task_system(run->tasks);
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
        shape.enableContactEvents = desc->contact_events != 0;
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
        b2Polygon box =
            x == 0.0 && y == 0.0
                ? b2MakeBox((float)half_width, (float)half_height)
                : b2MakeOffsetBox((float)half_width, (float)half_height, vec(x, y), b2Rot_identity);
        b2CreatePolygonShape(body, def, &box);
    }
}

static b2BodyId add_body(b2WorldId world, const carom_scene_desc* desc, const carom_scene_body* b) {
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
    shape.enableContactEvents = desc->contact_events != 0;
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

static void* build(const carom_scene_desc* desc, const char* variant, int enable_sleep,
                   int threads) {
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
    def.workerCount = threads;
    if (threads > 1) {
        run->tasks = start_task_system(threads);
        if (run->tasks == NULL || run->tasks->thread_count != threads - 1) {
            destroy(run);
            return NULL;
        }
        def.enqueueTask = enqueue_task;
        def.finishTask = finish_task;
        def.userTaskContext = run->tasks;
    }
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
    const bench_engine engine = {"box2d_v3", variants, build, step,
                                 positions,  destroy,  1,     MAX_THREADS};
    return bench_main(argc, argv, &engine);
}
