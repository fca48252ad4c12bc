/* Snapshots, reading: the state part (body states, fat boxes, contacts, islands, vehicle and
 * joint state) decoded and checked against the scene it will meet; the hot records go through
 * fast readers when they can. */
#include "core.h"

#include "ds.h"
#include "snapshot_read.h"
#include "world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Checks shared by the careful and the fast readers ------------------------------------ */

static inline bool vec2_ok(carom_vec2 v) {
    return valid_magnitude(v.x) && valid_magnitude(v.y);
}

/* A rotation's parts are finite and at most 1 in size, and it is a unit vector. */
static inline bool rotation_part_ok(double value) {
    return isfinite(value) && fabs(value) <= 1.0 + CAROM_ROTATION_TOLERANCE;
}

static inline bool rotation_unit(carom_rot q) {
    return fabs(q.c * q.c + q.s * q.s - 1.0) <= CAROM_ROTATION_TOLERANCE;
}

static inline bool body_flags_known(uint8_t flags) {
    return (flags & ~BODY_FLAGS_ALL) == 0;
}

/* A static body neither moves nor has a force; only a dynamic body sleeps. */
static inline bool body_flags_fit(uint8_t flags, carom_body_type type) {
    bool moves = (flags & (BODY_HAS_VELOCITY | BODY_HAS_FORCE)) != 0;
    return !(type == CAROM_BODY_STATIC && moves) &&
           !(type != CAROM_BODY_DYNAMIC && (flags & BODY_ASLEEP));
}

static inline bool fat_offset_ok(int64_t offset) {
    return offset >= -MAX_FAT_OFFSET && offset <= MAX_FAT_OFFSET;
}

/* The order carom_create_contacts puts shapes a and b (ids id_a and id_b) in. */
static inline bool contact_order_ok(const shape_slot* a, const shape_slot* b, int id_a, int id_b) {
    return a->rank < b->rank || (a->rank == b->rank && id_a < id_b);
}

/* Whether the broad phase could have made this pair (carom_proxies_may_pair, on scene data). */
static inline bool may_pair(const shape_slot* a, const shape_slot* b) {
    return a->body != b->body &&
           (a->body_type == CAROM_BODY_DYNAMIC || b->body_type == CAROM_BODY_DYNAMIC) &&
           !(a->is_sensor && b->is_sensor) && carom_filters_collide(a->filter, b->filter);
}

/* Two live shapes that could make a contact, in the engine's order. */
static inline bool contact_pair_ok(const scene_view* view, int id_a, int id_b) {
    const shape_slot* a = &view->shapes[id_a];
    const shape_slot* b = &view->shapes[id_b];
    return a->live && b->live && contact_order_ok(a, b, id_a, id_b) && may_pair(a, b);
}

/* Up to two manifold points, a touching flag and a cached flag. */
static inline bool contact_flags_ok(uint8_t flags) {
    return (flags & ~CONTACT_FLAGS_ALL) == 0 && (flags & 3) <= 2;
}

/* What a contact's record gives without its manifold; the fields a step reads are all set
 * (points beyond point_count are never read, and clearing the whole record was a third of a
 * restore's memory traffic). */
static void set_contact_head(carom_contact* c, const scene_view* view, int id, int shape_a,
                             int shape_b, uint8_t flags) {
    c->id = id;
    c->shape_a = shape_a;
    c->shape_b = shape_b;
    c->normal = carom_v2(0.0, 0.0);
    c->friction = 0.0;
    c->restitution = 0.0;
    c->material_revision = 0; /* mixed from the shapes at the next update, as when made */
    c->points_touch = false;  /* noted when the points are read */
    c->recycled = false;      /* no lane of a restored world holds it */
    c->point_count = flags & 3;
    c->touching = (flags & CONTACT_TOUCHING) != 0;
    c->disabled = false; /* the pre-solve callback decides again at the next step */
    c->manifold_cached = (flags & CONTACT_CACHED) != 0;
    const shape_slot* a = &view->shapes[shape_a];
    const shape_slot* b = &view->shapes[shape_b];
    c->is_sensor = a->is_sensor || b->is_sensor;
    c->reports_touch = a->reports_touch || b->reports_touch; /* carom_shapes_report_touch */
    c->edges[0].body = a->body;
    c->edges[1].body = b->body;
}

/* A recycled manifold's pose: kept by any contact but a sensor's. */
static inline bool contact_cache_ok(const carom_contact* c) {
    return !c->is_sensor && vec2_ok(c->cached_pose.p) && rotation_part_ok(c->cached_rotation_a.c) &&
           rotation_part_ok(c->cached_rotation_a.s) && rotation_unit(c->cached_rotation_a) &&
           rotation_part_ok(c->cached_rotation_b.c) && rotation_part_ok(c->cached_rotation_b.s) &&
           rotation_unit(c->cached_rotation_b);
}

/* The rest of a cached pose, derived as the narrow phase derives it. */
static inline void finish_contact_cache(carom_contact* c) {
    c->cached_pose.q = carom_inv_mul_rot(c->cached_rotation_a, c->cached_rotation_b);
}

static inline bool contact_normal_ok(const carom_contact* c) {
    return !(fabs(carom_length(c->normal) - 1.0) > UNIT_TOLERANCE) && !(c->restitution > 1.0);
}

/* What a body record holds when its flags leave the optional fields out. */
static inline void clear_optional_fields(body_record* out) {
    out->linear_velocity = carom_v2(0.0, 0.0);
    out->angular_velocity = 0.0;
    out->sleep_time = 0.0;
    out->rest_energy = 0.0;
    out->island = -1;
    out->force = carom_v2(0.0, 0.0);
    out->torque = 0.0;
}

/* ---- Careful readers: every field checked as it comes, and a message naming the first
 * problem. The fast readers below hand them whatever they do not take. ----------------------- */

static double get_unit_rot_part(reader* r, int id) {
    double value = get_f64(r);
    if (!r->failed && !rotation_part_ok(value)) {
        reader_fail(r, "rotation of body %d is not finite or not unit", id);
    }
    return value;
}

static void read_body_state_carefully(reader* r, carom_body_type type, body_record* out, int id) {
    out->flags = get_u8(r);
    if (!r->failed && !body_flags_known(out->flags)) {
        reader_fail(r, "body %d has unknown flags %u", id, out->flags);
    }
    out->center = get_vec2(r, "center of body", id);
    out->q.c = get_unit_rot_part(r, id);
    out->q.s = get_unit_rot_part(r, id);
    if (!r->failed && !rotation_unit(out->q)) {
        reader_fail(r, "rotation of body %d is not a unit vector", id);
    }
    clear_optional_fields(out);
    if (out->flags & BODY_HAS_VELOCITY) {
        out->linear_velocity = get_vec2(r, "velocity of body", id);
        out->angular_velocity = get_number(r, -CAROM_MAX_MAGNITUDE, "spin of body", id);
    }
    if (out->flags & BODY_HAS_REST_TIME) {
        out->sleep_time = get_number(r, 0.0, "rest time of body", id);
        out->rest_energy = get_number(r, 0.0, "rest energy of body", id);
    }
    if (out->flags & BODY_ASLEEP) {
        out->island = get_index(r, MAX_SLOTS, false, "island of a body");
    }
    if (out->flags & BODY_HAS_FORCE) {
        out->force = get_vec2(r, "force on body", id);
        out->torque = get_number(r, -CAROM_MAX_MAGNITUDE, "torque on body", id);
    }
    if (!r->failed && !body_flags_fit(out->flags, type)) {
        bool moves = (out->flags & (BODY_HAS_VELOCITY | BODY_HAS_FORCE)) != 0;
        if (type == CAROM_BODY_STATIC && moves) {
            reader_fail(r, "static body %d has a velocity or a force", id);
        } else {
            reader_fail(r, "body %d is asleep but not dynamic", id);
        }
    }
}

static void read_fat_box_carefully(reader* r, fat_record* out, int shape) {
    for (int i = 0; i < 4; ++i) {
        out->sides[i] = get_svar(r);
    }
    for (int i = 0; i < 4 && !r->failed; ++i) {
        int64_t offset = fat_offset(out, i);
        if (!fat_offset_ok(offset)) {
            reader_fail(r, "fat box of shape %d reaches %lld quanta from the shape", shape,
                        (long long)offset);
        }
    }
}

static void read_contact_carefully(reader* r, const scene_view* view, carom_contact* c, int id) {
    int shape_a = get_index(r, view->shape_slots, false, "shape of a contact");
    int shape_b = get_index(r, view->shape_slots, false, "shape of a contact");
    uint8_t flags = get_u8(r);
    if (r->failed) {
        return;
    }
    if (!contact_pair_ok(view, shape_a, shape_b)) {
        reader_fail(r,
                    "contact %d joins shapes %d and %d, which cannot make a contact in that "
                    "order",
                    id, shape_a, shape_b);
        return;
    }
    if (!contact_flags_ok(flags)) {
        reader_fail(r, "contact %d has flags %u", id, flags);
        return;
    }
    set_contact_head(c, view, id, shape_a, shape_b, flags);
    if (c->manifold_cached) {
        c->cached_pose.p = get_vec2(r, "cached pose of contact", id);
        c->cached_rotation_a.c = get_f64(r);
        c->cached_rotation_a.s = get_f64(r);
        c->cached_rotation_b.c = get_f64(r);
        c->cached_rotation_b.s = get_f64(r);
        if (!r->failed && !contact_cache_ok(c)) {
            reader_fail(r,
                        "contact %d has a cached pose that is not finite or not unit, or is a "
                        "sensor's",
                        id);
            return;
        }
        finish_contact_cache(c);
    }
    if (c->point_count == 0) {
        return;
    }
    c->normal = get_vec2(r, "normal of contact", id);
    c->friction = get_number(r, 0.0, "friction of contact", id);
    c->restitution = get_number(r, 0.0, "restitution of contact", id);
    if (!r->failed && !contact_normal_ok(c)) {
        reader_fail(r, "contact %d has a normal that is not unit or restitution above 1", id);
    }
    for (int i = 0; i < c->point_count; ++i) {
        carom_contact_point* cp = &c->points[i];
        cp->point = get_vec2(r, "point of contact", id);
        cp->anchor_a = get_vec2(r, "anchor of contact", id);
        cp->anchor_b = get_vec2(r, "anchor of contact", id);
        cp->separation = get_number(r, -CAROM_MAX_MAGNITUDE, "separation of contact", id);
        cp->id = (uint32_t)get_le(r, 4);
        c->impulses[i].normal = get_number(r, 0.0, "normal impulse of contact", id);
        c->impulses[i].tangent =
            get_number(r, -CAROM_MAX_MAGNITUDE, "friction impulse of contact", id);
        cp->base_separation = c->manifold_cached
                                  ? get_number(r, -CAROM_MAX_MAGNITUDE, "separation of contact", id)
                                  : cp->separation;
    }
    carom_contact_note_points(c);
}

/* ---- Fast readers, for the records a rollback has thousands of -----------------------------
 *
 * The careful readers pay for a bounds check, a failure check and a branch at every field. The
 * fast ones check once that the longest record of their kind fits in the bytes left, read the
 * fields with no further bounds checks, and fold the same checks into one verdict: true when
 * the record is valid and decoded exactly as the careful reader decodes it; false, and the
 * careful reader reads the record again from its start, to name the problem (or to take what
 * the fast one leaves to it: a varint longer than five bytes, a record near the end). Nothing is
 * accepted that the careful reader would refuse: both use the checks above. */

/* The most bytes a fast reader takes: a body record (flags, pose, velocity, rest time, island,
 * force), a fat box (four varints), a contact (two shape ids, flags, manifold of two points). */
#define BODY_RECORD_MAX (1 + 32 + 24 + 16 + 5 + 24)
#define FAT_BOX_MAX (4 * 5)
#define CONTACT_RECORD_MAX (5 + 5 + 1 + 48 + 32 + 2 * 84)

static inline double take_f64(const uint8_t** p) {
    uint64_t bits = carom_load_le64(*p);
    *p += 8;
    double value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static inline carom_vec2 take_vec2(const uint8_t** p) {
    carom_vec2 v;
    v.x = take_f64(p);
    v.y = take_f64(p);
    return v;
}

static inline uint32_t take_u32(const uint8_t** p) {
    const uint8_t* bytes = *p;
    *p += 4;
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
           (uint32_t)bytes[3] << 24;
}

/* A varint of at most five bytes (what ids and fat-box offsets take); false for a longer one. */
static inline bool take_uvar(const uint8_t** p, uint64_t* value) {
    const uint8_t* bytes = *p;
    if (bytes[0] < 0x80) { /* most are */
        *p = bytes + 1;
        *value = bytes[0];
        return true;
    }
    if (bytes[1] < 0x80) { /* and most others: ids below 16384 */
        *p = bytes + 2;
        *value = (uint64_t)(bytes[0] & 0x7f) | (uint64_t)bytes[1] << 7;
        return true;
    }
    uint64_t result = 0;
    for (int i = 0; i < 5; ++i) {
        result |= (uint64_t)(bytes[i] & 0x7f) << (7 * i);
        if (bytes[i] < 0x80) {
            *p = bytes + i + 1;
            *value = result;
            return true;
        }
    }
    return false;
}

static bool take_body_state(const uint8_t** cursor, carom_body_type type, body_record* out) {
    const uint8_t* p = *cursor;
    uint8_t flags = *p++;
    if (!body_flags_known(flags) || !body_flags_fit(flags, type)) {
        return false;
    }
    out->flags = flags;
    out->center = take_vec2(&p);
    out->q.c = take_f64(&p);
    out->q.s = take_f64(&p);
    bool ok = vec2_ok(out->center) && rotation_part_ok(out->q.c) && rotation_part_ok(out->q.s) &&
              rotation_unit(out->q);
    clear_optional_fields(out);
    if (flags & BODY_HAS_VELOCITY) {
        out->linear_velocity = take_vec2(&p);
        out->angular_velocity = take_f64(&p);
        ok = ok && vec2_ok(out->linear_velocity) && valid_magnitude(out->angular_velocity);
    }
    if (flags & BODY_HAS_REST_TIME) {
        out->sleep_time = take_f64(&p);
        out->rest_energy = take_f64(&p);
        ok = ok && valid_magnitude(out->sleep_time) && out->sleep_time >= 0.0 &&
             valid_magnitude(out->rest_energy) && out->rest_energy >= 0.0;
    }
    if (flags & BODY_ASLEEP) {
        uint64_t island = 0;
        ok = ok && take_uvar(&p, &island) && island < MAX_SLOTS;
        out->island = (int)island;
    }
    if (flags & BODY_HAS_FORCE) {
        out->force = take_vec2(&p);
        out->torque = take_f64(&p);
        ok = ok && vec2_ok(out->force) && valid_magnitude(out->torque);
    }
    *cursor = p;
    return ok;
}

static bool take_fat_box(const uint8_t** cursor, fat_record* out) {
    const uint8_t* p = *cursor;
    if ((p[0] | p[1] | p[2] | p[3]) < 0x80) {
        /* four one-byte varints, as most boxes are: each side within 64 quanta (2 m) */
        for (int i = 0; i < 4; ++i) {
            out->sides[i] = unzigzag(p[i]);
        }
        *cursor = p + 4;
        return true;
    }
    bool ok = true;
    for (int i = 0; i < 4 && ok; ++i) {
        uint64_t zigzag = 0;
        ok = take_uvar(&p, &zigzag);
        out->sides[i] = unzigzag(zigzag);
        ok = ok && fat_offset_ok(fat_offset(out, i));
    }
    *cursor = p;
    return ok;
}

static bool take_contact(const uint8_t** cursor, const scene_view* view, carom_contact* c, int id) {
    const uint8_t* p = *cursor;
    uint64_t shape_a = 0, shape_b = 0;
    if (!take_uvar(&p, &shape_a) || !take_uvar(&p, &shape_b) ||
        shape_a >= (uint64_t)view->shape_slots || shape_b >= (uint64_t)view->shape_slots) {
        return false;
    }
    uint8_t flags = *p++;
    if (!contact_pair_ok(view, (int)shape_a, (int)shape_b) || !contact_flags_ok(flags)) {
        return false;
    }
    set_contact_head(c, view, id, (int)shape_a, (int)shape_b, flags);
    bool ok = true;
    if (c->manifold_cached) {
        c->cached_pose.p = take_vec2(&p);
        c->cached_rotation_a.c = take_f64(&p);
        c->cached_rotation_a.s = take_f64(&p);
        c->cached_rotation_b.c = take_f64(&p);
        c->cached_rotation_b.s = take_f64(&p);
        ok = contact_cache_ok(c);
        finish_contact_cache(c);
    }
    if (c->point_count > 0) {
        c->normal = take_vec2(&p);
        c->friction = take_f64(&p);
        c->restitution = take_f64(&p);
        ok = ok && vec2_ok(c->normal) && valid_magnitude(c->friction) && c->friction >= 0.0 &&
             valid_magnitude(c->restitution) && c->restitution >= 0.0 && contact_normal_ok(c);
    }
    for (int i = 0; i < c->point_count; ++i) {
        carom_contact_point* cp = &c->points[i];
        cp->point = take_vec2(&p);
        cp->anchor_a = take_vec2(&p);
        cp->anchor_b = take_vec2(&p);
        cp->separation = take_f64(&p);
        cp->id = take_u32(&p);
        c->impulses[i].normal = take_f64(&p);
        c->impulses[i].tangent = take_f64(&p);
        cp->base_separation = c->manifold_cached ? take_f64(&p) : cp->separation;
        ok = ok && valid_magnitude(cp->base_separation) && vec2_ok(cp->point) &&
             vec2_ok(cp->anchor_a) && vec2_ok(cp->anchor_b) && valid_magnitude(cp->separation) &&
             valid_magnitude(c->impulses[i].normal) && c->impulses[i].normal >= 0.0 &&
             valid_magnitude(c->impulses[i].tangent);
    }
    carom_contact_note_points(c);
    *cursor = p;
    return ok;
}

/* ---- Readers of the hot records: fast when they can be, careful when not -----------------
 *
 * They keep their place in a local pointer across the records, and give it back to the reader
 * only to hand it a record, and at the end: the compiler cannot tell that the reader is not
 * among the bytes the records are decoded into, so it would load and store its fields again at
 * every record. */

/* Whether the longest record of a kind fits in the bytes left from `at`. */
static inline bool fits(const uint8_t* at, const uint8_t* end, uint64_t longest) {
    return (uint64_t)(end - at) >= longest;
}

static bool take_body_and_boxes(const uint8_t** cursor, const scene_view* view,
                                const body_slot* body, body_record* out, fat_record* fats) {
    bool ok = take_body_state(cursor, (carom_body_type)body->type, out);
    for (int s = body->first_shape; s >= 0 && ok; s = view->shapes[s].next_shape) {
        ok = take_fat_box(cursor, &fats[s]);
    }
    return ok;
}

static void read_body_and_boxes_carefully(reader* r, const scene_view* view, const body_slot* body,
                                          int id, body_record* out, fat_record* fats) {
    read_body_state_carefully(r, (carom_body_type)body->type, out, id);
    for (int s = body->first_shape; s >= 0 && !r->failed; s = view->shapes[s].next_shape) {
        read_fat_box_carefully(r, &fats[s], s);
    }
}

/* Every live body's record, then its shapes' fat boxes in the order of its shape list. */
static void read_bodies(reader* r, const scene_view* view, state_data* state) {
    const uint8_t* at = r->data + r->at;
    const uint8_t* end = r->data + r->size;
    for (int b = 0; b < view->body_slots; ++b) {
        const body_slot* body = &view->bodies[b];
        if (body->type < 0) {
            continue;
        }
        const uint8_t* record = at;
        uint64_t longest = BODY_RECORD_MAX + (uint64_t)body->shape_count * FAT_BOX_MAX;
        if (!fits(at, end, longest) ||
            !take_body_and_boxes(&at, view, body, &state->bodies[b], state->fats)) {
            r->at = (size_t)(record - r->data);
            read_body_and_boxes_carefully(r, view, body, b, &state->bodies[b], state->fats);
            if (r->failed) {
                return;
            }
            at = r->data + r->at;
        }
        if (state->bodies[b].flags & BODY_ASLEEP) {
            arrput(state->sleepers, b);
        }
    }
    r->at = (size_t)(at - r->data);
}

/* The contact at `slot` from the reader's place `*at`, which it moves past the record. */
static void read_contact(reader* r, const uint8_t** at, const scene_view* view, carom_contact* c,
                         int slot) {
    const uint8_t* end = r->data + r->size;
    const uint8_t* record = *at;
    if (!fits(record, end, CONTACT_RECORD_MAX) || !take_contact(at, view, c, slot)) {
        r->at = (size_t)(record - r->data);
        read_contact_carefully(r, view, c, slot);
        *at = r->data + r->at;
    }
}

/* The pair of the contact the scratch array holds at `slot`, to be replaced: its key leaves the
 * pair map, unless the new contact there is the same pair (most are, in a rollback: a contact
 * keeps its id while it lasts). */
static bool old_pair(const state_data* state, int slot, int old_slots, uint64_t* key) {
    if (slot >= old_slots || state->contacts[slot].id < 0) {
        return false;
    }
    *key = carom_contact_pair_key(&state->contacts[slot]);
    return true;
}

/* The contacts are decoded into the scratch array and its pair map, which a commit swaps with
 * the world's. The map is brought up to date rather than built again: the pairs of the old
 * contacts that are gone leave it, then those of the new ones enter (the order matters: a pair
 * may move to another id); entering fails for a pair that is there already, as a duplicate. */
static void read_contacts(reader* r, const scene_view* view, state_data* state) {
    read_pool(r, &state->contact_pool, &state->marks, 0, "contact slots");
    int slots = state->contact_pool.next_id;
    if (r->failed) {
        return;
    }
    if (!state->pairs_known) {
        carom_hash_map_clear(&state->pair_map);
        arrsetlen(state->contacts, 0);
    }
    state->pairs_known = false; /* until the decoding succeeds */
    int old_slots = (int)arrlen(state->contacts);
    uint64_t key = 0;
    for (int i = slots; i < old_slots; ++i) {
        if (old_pair(state, i, old_slots, &key)) {
            carom_hash_map_remove(&state->pair_map, key);
        }
    }
    arrsetlen(state->contacts, slots);
    arrsetlen(state->new_pairs, 0);
    const uint8_t* at = r->data + r->at;
    for (int i = 0; i < slots && !r->failed; ++i) {
        carom_contact* contact = &state->contacts[i];
        bool had_pair = old_pair(state, i, old_slots, &key);
        if (state->marks[i]) {
            contact->id = -1;
        } else {
            read_contact(r, &at, view, contact, i);
            if (r->failed || (had_pair && key == carom_contact_pair_key(contact))) {
                continue;
            }
            arrput(state->new_pairs, i);
        }
        if (had_pair) {
            carom_hash_map_remove(&state->pair_map, key);
        }
    }
    if (!r->failed) {
        r->at = (size_t)(at - r->data);
    }
    for (int k = 0; k < (int)arrlen(state->new_pairs) && !r->failed; ++k) {
        const carom_contact* contact = &state->contacts[state->new_pairs[k]];
        if (!carom_hash_map_insert_new(&state->pair_map, carom_contact_pair_key(contact),
                                       contact->id)) {
            reader_fail(r, "shapes %d and %d have two contacts", contact->shape_a,
                        contact->shape_b);
        }
    }
    state->pairs_known = !r->failed;
}

static double get_signed_unit(reader* r, const char* what, int id) {
    double value = get_f64(r);
    if (!r->failed && !(value >= -1.0 && value <= 1.0)) {
        reader_fail(r, "%s of vehicle %d is %g: it must be in [-1, 1]", what, id, value);
    }
    return value;
}

static void read_vehicle_state(reader* r, const carom_vehicle* vehicle, vehicle_record* out,
                               int id) {
    out->input.throttle = get_signed_unit(r, "throttle", id);
    out->input.brake = get_signed_unit(r, "brake", id);
    out->input.steer = get_signed_unit(r, "steer", id);
    out->input.handbrake = get_flag(r, "handbrake of vehicle", id);
    if (!r->failed && out->input.brake < 0.0) {
        reader_fail(r, "brake of vehicle %d is negative", id);
    }
    out->steer_lock = get_number(r, -CAROM_MAX_MAGNITUDE, "steer lock of vehicle", id);
    out->steer_angle = get_number(r, -CAROM_MAX_MAGNITUDE, "steer angle of vehicle", id);
    for (int i = 0; i < vehicle->def.wheel_count; ++i) {
        out->wheel_directions[i] = get_vec2(r, "wheel direction of vehicle", id);
        out->slip_angles[i] = get_number(r, -CAROM_MAX_MAGNITUDE, "slip angle of vehicle", id);
        out->surface_grips[i] = get_number(r, 0.0, "surface grip of vehicle", id);
        out->longitudinal_forces[i] =
            get_number(r, -CAROM_MAX_MAGNITUDE, "wheel force of vehicle", id);
        out->lateral_forces[i] = get_number(r, -CAROM_MAX_MAGNITUDE, "wheel force of vehicle", id);
        out->sliding[i] = get_flag(r, "sliding flag of vehicle", id);
    }
}

/* Every sleeping body's island is live, and every live island has a body. */
static void check_islands(reader* r, state_data* state) {
    int slots = state->island_pool.next_id;
    arrsetlen(state->island_members, slots);
    for (int i = 0; i < slots; ++i) {
        state->island_members[i] = 0;
    }
    for (int k = 0; k < (int)arrlen(state->sleepers) && !r->failed; ++k) {
        int b = state->sleepers[k];
        const body_record* record = &state->bodies[b];
        if (record->island >= slots || state->marks[record->island]) {
            reader_fail(r, "body %d sleeps in island %d, which is not live", b, record->island);
        } else {
            state->island_members[record->island] += 1;
        }
    }
    for (int i = 0; i < slots && !r->failed; ++i) {
        if (!state->marks[i] && state->island_members[i] == 0) {
            reader_fail(r, "island %d has no bodies", i);
        }
    }
}

/* A joint's state record (carom_snapshot_joint_state_fields gives its fields and their
 * minimums), into `values`; a mouse joint's target is then checked as creation checks it. */
static void read_joint_state(reader* r, const carom_joint* joint, double* values, int id) {
    carom_joint copy = *joint;
    double* fields[CAROM_JOINT_STATE_FIELDS];
    double minimums[CAROM_JOINT_STATE_FIELDS];
    int count = carom_snapshot_joint_state_fields(&copy, fields, minimums);
    for (int i = 0; i < count; ++i) {
        values[i] = get_number(r, minimums[i], "state of joint", id);
        *fields[i] = values[i];
    }
    if (!r->failed && joint->type == CAROM_JOINT_MOUSE) {
        check_with(r, carom_check_joint_record(&copy), "mouse joint target");
    }
}

void read_state(reader* r, const scene_view* view, state_data* state, int version) {
    state->version = version;
    state->gravity = get_vec2(r, "gravity of world", 0);
    uint64_t substeps = get_uvar(r);
    if (!r->failed && (substeps < 1 || substeps > 64)) {
        reader_fail(r, "substeps is %llu: it must be between 1 and 64",
                    (unsigned long long)substeps);
    }
    state->substeps = (int)substeps;
    uint64_t steps = get_uvar(r);
    if (!r->failed && steps > INT32_MAX) {
        reader_fail(r, "step count %llu is beyond what a world counts", (unsigned long long)steps);
    }
    state->step_count = (int)steps;
    state->cell_size = get_number(r, 0.0, "chosen cell size of world", 0);
    if (!r->failed && state->cell_size != 0.0 && state->cell_size < CAROM_MIN_CELL_SIZE) {
        reader_fail(r, "the grid's cell size is %g m: it must be 0 or at least %g m",
                    state->cell_size, CAROM_MIN_CELL_SIZE);
    }
    if (r->failed) {
        return;
    }
    arrsetlen(state->bodies, view->body_slots);
    arrsetlen(state->fats, view->shape_slots);
    arrsetlen(state->sleepers, 0);
    read_bodies(r, view, state);
    read_contacts(r, view, state);
    read_pool(r, &state->island_pool, &state->marks, view->body_slots, "island slots");
    if (!r->failed) {
        check_islands(r, state);
    }
    arrsetlen(state->vehicles, view->vehicle_slots);
    for (int v = 0; v < view->vehicle_slots && !r->failed; ++v) {
        if (view->vehicles[v].id >= 0) {
            read_vehicle_state(r, &view->vehicles[v], &state->vehicles[v], v);
        }
    }
    if (version >= 3) {
        arrsetlen(state->joint_values, (size_t)view->joint_slots * CAROM_JOINT_STATE_FIELDS);
    }
    for (int j = 0; version >= 3 && j < view->joint_slots && !r->failed; ++j) {
        if (view->joints[j].id >= 0) {
            read_joint_state(r, &view->joints[j],
                             state->joint_values + (size_t)j * CAROM_JOINT_STATE_FIELDS, j);
        }
    }
    if (!r->failed && r->at != r->size) {
        reader_fail(r, "%zu bytes are left over after the last %s", r->size - r->at,
                    version >= 3 ? "joint" : "vehicle");
    }
}
