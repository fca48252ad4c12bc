/* libFuzzer target for the snapshot loader (include/carom/snapshot.h, docs/fuzzing.md).
 *
 * Snapshots arrive from disks and networks: a save game someone edited, a rollback state from a
 * peer. snapshot.h promises that loading never trusts the bytes. Beyond "no crash, no hang, no
 * leak" (the sanitizers and libFuzzer watch those), each input is held to the header's promises,
 * and a broken promise traps, which libFuzzer reports like a crash:
 * - carom_snapshot_get_info either refuses the input with a message or describes it
 *   consistently (this version, part sizes that add up to the input, sane counts);
 * - carom_create_world_from_snapshot either refuses it with a message, or makes a world that
 *   matches the info (bodies, step count), steps three times with finite poses and velocities,
 *   and saves again; a snapshot the engine wrote itself loads and saves back to the same bytes;
 * - carom_world_restore into an existing world either refuses it with a message and leaves the
 *   world exactly as it was (saved to the same bytes), or restores a world that steps and
 *   saves like the one above; restoring the world's own earlier full snapshot then brings it
 *   back to the same bytes.
 * A refusal's message is one non-empty line of printable text, like every carom error. */
#include "snapshot_worlds.h"

#include <carom/snapshot.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

#define STEPS 3
#define DT (1.0 / 60.0)

/* Report what broke and trap: libFuzzer saves the input and prints the stack. */
static void fail(const char* what) {
    fprintf(stderr, "fuzz_snapshot: %s (last error: %s)\n", what, carom_last_error());
    __builtin_trap();
}

static void check(int condition, const char* what) {
    if (!condition) {
        fail(what);
    }
}

/* After a refusal: the status is recorded and explained in one printable line. */
static void check_refusal(carom_status status) {
    check(status != CAROM_OK, "a refusal returned CAROM_OK");
    check(carom_last_status() == status, "carom_last_status() is not the refusal's status");
    const char* message = carom_last_error();
    check(message != NULL && message[0] != '\0', "a refusal left carom_last_error() empty");
    for (const unsigned char* p = (const unsigned char*)message; *p != '\0'; ++p) {
        check(*p >= 0x20 && *p != 0x7f, "an error message holds a control character");
    }
}

/* A world's snapshot of some parts, in a malloc'd buffer; *size receives its size. Saving a
 * valid world must always work. */
static unsigned char* save(carom_world_id world, carom_snapshot_parts parts, size_t* size) {
    check(carom_world_save(world, parts, NULL, 0, size) == CAROM_OK, "measuring a save failed");
    check(*size > 0, "a save measured 0 bytes");
    unsigned char* buffer = malloc(*size);
    check(buffer != NULL, "out of memory");
    size_t written = 0;
    check(carom_world_save(world, parts, buffer, *size, &written) == CAROM_OK, "a save failed");
    check(written == *size, "a save wrote other than the size it measured");
    if (*size > 1) {
        /* One byte short must be refused: the capacity is honoured. */
        check(carom_world_save(world, parts, buffer, *size - 1, &written) ==
                  CAROM_ERROR_BUFFER_TOO_SMALL,
              "a save into a buffer one byte short was not refused");
        check(carom_world_save(world, parts, buffer, *size, &written) == CAROM_OK,
              "a save failed");
    }
    return buffer;
}

static int same_bytes(const unsigned char* a, size_t a_size, const unsigned char* b,
                      size_t b_size) {
    return a_size == b_size && memcmp(a, b, a_size) == 0;
}

/* ---- Finite poses and velocities through the public API -------------------------------------
 * There is no body enumeration: the debug draw visits every shape (its drawn geometry comes from
 * its body's pose), and an overlap query over the whole plane finds every shape in the broad
 * phase, whose body's getters then give pose and velocities. */

static int finite2(carom_vec2 v) {
    return isfinite(v.x) && isfinite(v.y);
}

static void draw_polygon(const carom_vec2* vertices, int count, uint32_t color, void* context) {
    (void)color;
    ++*(int*)context;
    for (int i = 0; i < count; ++i) {
        check(finite2(vertices[i]), "a drawn polygon vertex is not finite");
    }
}

static void draw_circle(carom_vec2 center, double radius, carom_vec2 axis, uint32_t color,
                        void* context) {
    (void)color;
    ++*(int*)context;
    check(finite2(center) && isfinite(radius) && finite2(axis), "a drawn circle is not finite");
}

static void draw_segment(carom_vec2 p1, carom_vec2 p2, uint32_t color, void* context) {
    (void)color;
    ++*(int*)context;
    check(finite2(p1) && finite2(p2), "a drawn segment is not finite");
}

static void draw_point(carom_vec2 point, uint32_t color, void* context) {
    (void)color;
    ++*(int*)context;
    check(finite2(point), "a drawn point is not finite");
}

static int check_shape(carom_shape_id shape, void* context) {
    ++*(int*)context;
    check(carom_shape_is_valid(shape), "an overlap query reported an invalid shape");
    carom_aabb box = carom_shape_get_aabb(shape);
    check(finite2(box.lower) && finite2(box.upper), "a shape's box is not finite");
    carom_body_id body = carom_shape_get_body(shape);
    check(carom_body_is_valid(body), "a shape's body is not valid");
    carom_rot r = carom_body_get_rotation(body);
    check(finite2(carom_body_get_position(body)) && isfinite(r.c) && isfinite(r.s),
          "a body's pose is not finite");
    check(finite2(carom_body_get_linear_velocity(body)) &&
              isfinite(carom_body_get_angular_velocity(body)),
          "a body's velocity is not finite");
    return 1;
}

static void check_finite_world(carom_world_id world) {
    int drawn = 0;
    carom_debug_draw draw = {draw_polygon, draw_circle, draw_segment, draw_point,
                             1,            1,           0,            &drawn,
                             1};
    check(carom_world_draw(world, &draw) == CAROM_OK, "drawing a loaded world failed");
    int found = 0;
    carom_aabb everywhere = {{-CAROM_MAX_MAGNITUDE, -CAROM_MAX_MAGNITUDE},
                             {CAROM_MAX_MAGNITUDE, CAROM_MAX_MAGNITUDE}};
    check(carom_world_overlap_aabb(world, everywhere, carom_default_filter(), check_shape,
                                   &found) == CAROM_OK,
          "an overlap query on a loaded world failed");
    carom_world_counters counters = carom_world_get_counters(world);
    check(found <= counters.shape_count, "an overlap query found more shapes than there are");
}

/* ---- A loaded world --------------------------------------------------------------------------- */


/* Step a world that just loaded `info`, check it, and save it again. A dynamic body without mass
 * can be saved (it is created before its shapes), so a refused step is fine if that is why. */
static void exercise(carom_world_id world, const carom_snapshot_info* info) {
    carom_world_counters counters = carom_world_get_counters(world);
    /* The info is read from the counts that open each part, the world from the rest: they must
     * agree. */
    check(counters.body_count == info->body_count,
          "a loaded world's body count is not the info's");
    check(counters.step_count == info->step_count,
          "a loaded world's step count is not the info's");
    check_finite_world(world);
    int stepped = 0;
    for (int i = 0; i < STEPS; ++i) {
        carom_status status = carom_world_step(world, DT);
        if (status != CAROM_OK) {
            check(status == CAROM_ERROR_NO_MASS, "a loaded world refused to step");
            break;
        }
        ++stepped;
        check_finite_world(world);
    }
    size_t size = 0;
    unsigned char* again = save(world, CAROM_SNAPSHOT_FULL, &size);
    carom_snapshot_info after;
    check(carom_snapshot_get_info(again, size, &after) == CAROM_OK,
          "the info of a loaded world's own save was refused");
    counters = carom_world_get_counters(world);
    check(after.body_count == counters.body_count && after.step_count == counters.step_count &&
              after.contact_count == counters.contact_count,
          "the info of a world's own save does not match its counters");
    check(after.step_count == info->step_count + stepped,
          "a loaded world's save does not count its steps");
    free(again);
}

/* The info is consistent with the buffer it describes. */
static void check_info(const carom_snapshot_info* info, size_t size) {
    check(info->version >= 2 && info->version <= CAROM_SNAPSHOT_VERSION,
          "the info reports a version this build does not read");
    check(info->scene_size + info->state_size == size,
          "the info's part sizes do not add up to the buffer");
    check(info->scene_size > 0 || info->state_size > 0, "the info reports no part");
    check(info->body_count >= 0 && info->contact_count >= 0 && info->step_count >= 0,
          "the info reports a negative count");
    check(info->state_size > 0 || (info->contact_count == 0 && info->step_count == 0),
          "the info reports contacts or steps without a state part");
}

/* ---- Mutating past the checksums -------------------------------------------------------------
 * Each part carries a 64-bit checksum of its payload, so almost every mutation of a real snapshot
 * is refused at the header and the decoder behind it is never reached. The custom mutator mostly
 * mutates one part's payload and then writes the part's size and checksums back, so the mutant
 * reaches the decoder; sometimes it mutates the whole buffer (headers included) and fixes the
 * checksums, and sometimes it leaves them as they come out, so the header checks are fuzzed too.
 *
 * The checksum is carom_snapshot_checksum; the layout is snapshot_worlds.h's copy of
 * engine/snapshot.h. LLVMFuzzerInitialize checks that fixing a real snapshot changes nothing, so
 * a layout change that the copy misses stops the fuzzer at once instead of silently fuzzing the
 * checksum refusal alone. */

size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    snapshot_part parts[2];
    int count = snapshot_find_parts(data, size, parts);
    unsigned choice = seed % 16;
    if (count == 0 || choice == 0) {
        return LLVMFuzzerMutate(data, size, max_size);
    }
    if (choice == 1) {
        size = LLVMFuzzerMutate(data, size, max_size);
        snapshot_fix_checksums(data, size);
        return size;
    }
    snapshot_part p = parts[(seed / 16) % (unsigned)count];
    if (p.payload == 0) {
        size = LLVMFuzzerMutate(data, size, max_size);
        snapshot_fix_checksums(data, size);
        return size;
    }
    /* Mutate the payload alone: set aside what follows it, which the payload may grow over. */
    size_t payload_at = p.at + SNAPSHOT_HEADER_SIZE;
    size_t tail_at = payload_at + p.payload;
    size_t tail = size - tail_at;
    uint8_t* saved = NULL;
    if (tail > 0) {
        saved = malloc(tail);
        check(saved != NULL, "out of memory");
        memcpy(saved, data + tail_at, tail);
    }
    size_t payload = LLVMFuzzerMutate(data + payload_at, p.payload, max_size - payload_at - tail);
    if (tail > 0) {
        memcpy(data + payload_at + payload, saved, tail);
        free(saved);
    }
    snapshot_put_le64(data + p.at + SNAPSHOT_PAYLOAD_SIZE_AT, payload);
    size = payload_at + payload + tail;
    snapshot_fix_checksums(data, size);
    return size;
}

/* ---- The existing world ------------------------------------------------------------------------
 * Built once; restores go into it. `pristine` is its full snapshot, put back after every input
 * that restored successfully. */
static carom_world_id existing;
static unsigned char* pristine;
static size_t pristine_size;

int LLVMFuzzerInitialize(int* argc, char*** argv) {
    (void)argc;
    (void)argv;
    snapshot_world w;
    if (snapshot_world_build(SNAPSHOT_WORLD_SMALL, &w) != 0) {
        fail("building the existing world failed");
    }
    /* Stepped into a state with contacts and a sleeping timer running, like a game's world. */
    for (int i = 0; i < 30; ++i) {
        check(snapshot_world_step(&w, i) == CAROM_OK, "stepping the existing world failed");
    }
    existing = w.world;
    pristine = save(existing, CAROM_SNAPSHOT_FULL, &pristine_size);
    /* The mutator's copy of the layout still matches the engine's (see above). */
    unsigned char* fixed = malloc(pristine_size);
    check(fixed != NULL, "out of memory");
    memcpy(fixed, pristine, pristine_size);
    snapshot_fix_checksums(fixed, pristine_size);
    snapshot_part parts[2];
    check(snapshot_find_parts(fixed, pristine_size, parts) == 2 &&
              same_bytes(fixed, pristine_size, pristine, pristine_size),
          "the mutator's copy of the snapshot layout is out of date");
    free(fixed);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    /* (a) The headers. */
    carom_snapshot_info info;
    carom_clear_last_error();
    carom_status info_status = carom_snapshot_get_info(data, size, &info);
    if (info_status == CAROM_OK) {
        check_info(&info, size);
    } else {
        check_refusal(info_status);
    }

    /* (b) A new world from the bytes. */
    carom_clear_last_error();
    carom_world_id world = carom_create_world_from_snapshot(data, size);
    if (CAROM_IS_NULL(world)) {
        check_refusal(carom_last_status());
    } else {
        check(info_status == CAROM_OK, "a world was made from bytes whose info was refused");
        check(info.scene_size > 0 && info.state_size > 0,
              "a world was made from bytes without both parts");
        /* Loading what the engine itself wrote and saving it again gives the same bytes: the
         * encoding of a world is unique. */
        size_t first_size = 0, second_size = 0;
        unsigned char* first = save(world, CAROM_SNAPSHOT_FULL, &first_size);
        carom_world_id copy = carom_create_world_from_snapshot(first, first_size);
        check(CAROM_IS_NON_NULL(copy), "a world's own save was refused");
        unsigned char* second = save(copy, CAROM_SNAPSHOT_FULL, &second_size);
        check(same_bytes(first, first_size, second, second_size),
              "a world's own save, loaded and saved again, changed");
        free(first);
        free(second);
        check(carom_destroy_world(copy) == CAROM_OK, "destroying a loaded world failed");
        exercise(world, &info);
        check(carom_destroy_world(world) == CAROM_OK, "destroying a loaded world failed");
    }

    /* (c) Restore into the existing world. Before: it holds exactly its pristine snapshot. */
    size_t before_size = 0;
    unsigned char* before = save(existing, CAROM_SNAPSHOT_FULL, &before_size);
    check(same_bytes(before, before_size, pristine, pristine_size),
          "the existing world does not save to its pristine snapshot");
    free(before);
    carom_clear_last_error();
    carom_status status = carom_world_restore(existing, data, size);
    if (status != CAROM_OK) {
        check_refusal(status);
        size_t after_size = 0;
        unsigned char* after = save(existing, CAROM_SNAPSHOT_FULL, &after_size);
        check(same_bytes(after, after_size, pristine, pristine_size),
              "a refused restore changed the world");
        free(after);
    } else {
        check(info_status == CAROM_OK, "a restore took bytes whose info was refused");
        check(info.state_size > 0, "a restore took bytes without a state part");
        exercise(existing, &info);
        check(carom_world_restore(existing, pristine, pristine_size) == CAROM_OK,
              "restoring the pristine snapshot failed");
        size_t back_size = 0;
        unsigned char* back = save(existing, CAROM_SNAPSHOT_FULL, &back_size);
        check(same_bytes(back, back_size, pristine, pristine_size),
              "restoring the pristine snapshot did not bring the world back");
        free(back);
    }
    return 0;
}
