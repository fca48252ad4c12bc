// bench_box2d: one timed run of a benchmark scene on Box2D 2.4 (protocol: bench_common.h),
// through its public API at its defaults: b2World::Step(dt, 8, 3), continuous collision on for
// the world (bodies are not bullets), floats; sleep allowed (--sleep on, the default, with the
// scene's sleepers created asleep: b2BodyDef::awake) or not (--sleep off). The variant "no-ccd"
// turns continuous collision off, to see what it costs (run_bench.py does not run it by
// default). Box2D mixes friction by geometric mean and restitution by maximum, as carom does,
// and damps as carom does, so the description maps one to one; segment walls are two-sided
// edges.
#include "bench_common.h"

#include <box2d/box2d.h>

#include <cstring>
#include <new>
#include <vector>

namespace {

struct Box2dRun {
    b2World world{b2Vec2(0.0f, 0.0f)};
    std::vector<b2Body*> bodies; // the dynamic bodies, in description order
};

b2Vec2 vec(double x, double y) {
    return b2Vec2(static_cast<float>(x), static_cast<float>(y));
}

void addWalls(b2World& world, const carom_scene_desc& desc) {
    b2BodyDef def; // static, at the origin
    b2Body* ground = world.CreateBody(&def);
    for (int i = 0; i < desc.wall_count; ++i) {
        const carom_scene_wall& w = desc.walls[i];
        b2PolygonShape box;
        b2EdgeShape segment; // two-sided
        b2FixtureDef fixture;
        if (w.shape == CAROM_SCENE_SEGMENT) {
            segment.SetTwoSided(vec(w.x1, w.y1), vec(w.x2, w.y2));
            fixture.shape = &segment;
        } else {
            box.SetAsBox(static_cast<float>(w.half_width), static_cast<float>(w.half_height),
                         vec(w.x, w.y), 0.0f);
            fixture.shape = &box;
        }
        fixture.friction = static_cast<float>(w.friction);
        fixture.restitution = 0.0f;
        ground->CreateFixture(&fixture);
    }
}

b2Body* addBody(b2World& world, const carom_scene_body& b) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = vec(b.x, b.y);
    def.angle = static_cast<float>(b.angle);
    def.linearVelocity = vec(b.vx, b.vy);
    def.linearDamping = static_cast<float>(b.linear_damping);
    def.angularDamping = static_cast<float>(b.angular_damping);
    def.awake = b.asleep == 0;
    b2Body* body = world.CreateBody(&def);
    b2CircleShape circle;
    b2PolygonShape box;
    b2FixtureDef fixture;
    if (b.shape == CAROM_SCENE_CIRCLE) {
        circle.m_radius = static_cast<float>(b.radius);
        fixture.shape = &circle;
    } else {
        box.SetAsBox(static_cast<float>(b.half_width), static_cast<float>(b.half_height));
        fixture.shape = &box;
    }
    fixture.density = static_cast<float>(b.density);
    fixture.friction = static_cast<float>(b.friction);
    fixture.restitution = static_cast<float>(b.restitution);
    body->CreateFixture(&fixture);
    return body;
}

} // namespace

// The callbacks bench_main() calls: functions of C language linkage, kept file-local.
extern "C" {

static void* build(const carom_scene_desc* desc, const char* variant, int enable_sleep) {
    try { // no exception may cross into bench_main's C frames: out of memory is a NULL
        Box2dRun* run = new Box2dRun;
        run->world.SetGravity(vec(desc->gravity_x, desc->gravity_y));
        run->world.SetAllowSleeping(enable_sleep != 0);
        run->world.SetContinuousPhysics(std::strcmp(variant, "no-ccd") != 0);
        addWalls(run->world, *desc);
        run->bodies.reserve(static_cast<size_t>(desc->body_count));
        for (int i = 0; i < desc->body_count; ++i) {
            run->bodies.push_back(addBody(run->world, desc->bodies[i]));
        }
        return run;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

static void step(void* world, double dt) {
    static_cast<Box2dRun*>(world)->world.Step(static_cast<float>(dt), 8, 3);
}

static void positions(void* world, const carom_scene_desc* desc, double* xy) {
    const Box2dRun* run = static_cast<const Box2dRun*>(world);
    for (int i = 0; i < desc->body_count; ++i) {
        b2Vec2 p = run->bodies[static_cast<size_t>(i)]->GetPosition();
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
    }
}

static void destroy(void* world) {
    delete static_cast<Box2dRun*>(world); // ~b2World frees every body and fixture
}

} // extern "C"

int main(int argc, char** argv) {
    static const char* const variants[] = {"default", "no-ccd", nullptr};
    const bench_engine engine = {"box2d", variants, build, step, positions, destroy, 0};
    return bench_main(argc, argv, &engine);
}
