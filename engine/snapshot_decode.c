/* Snapshots, reading: the byte reader that fails softly with a message (numbers, varints,
 * counts, indices, vectors, flags, filters) and the part headers a buffer is split into. */
#include "core.h"

#include "ds.h"
#include "snapshot_read.h"
#include "world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Reading ---------------------------------------------------------------------------- */

void reader_fail(reader* r, const char* format, ...) {
    if (r->failed) {
        return;
    }
    r->failed = true;
    va_list list;
    va_start(list, format);
    vsnprintf(r->message, sizeof(r->message), format, list);
    va_end(list);
}

void fail_truncated(reader* r) {
    reader_fail(r, "it ends early, at byte %zu of its payload", r->size);
}

uint8_t get_u8(reader* r) {
    return can_read(r, 1) ? r->data[r->at++] : 0;
}

uint64_t get_le(reader* r, int bytes) {
    if (!can_read(r, (size_t)bytes)) {
        return 0;
    }
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) {
        value |= (uint64_t)r->data[r->at + (size_t)i] << (8 * i);
    }
    r->at += (size_t)bytes;
    return value;
}

uint64_t get_long_uvar(reader* r) {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t byte = get_u8(r);
        if (r->failed) {
            return 0;
        }
        if (shift == 63 && byte > 1) {
            break;
        }
        value |= (uint64_t)(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) {
            return value;
        }
    }
    reader_fail(r, "a number at byte %zu is longer than 64 bits", r->at);
    return 0;
}

/* A count of things that each take at least one more byte: bounded by the bytes left, which is
 * what bounds every allocation by the buffer's size. */
int get_count(reader* r, const char* what) {
    uint64_t count = get_uvar(r);
    if (!r->failed && (count > r->size - r->at || count >= MAX_SLOTS)) {
        reader_fail(r, "%s count %llu is more than the bytes left", what,
                    (unsigned long long)count);
        return 0;
    }
    return (int)count;
}

/* An index below `limit`, stored as index + 1 when `allow_none` (0 then means -1). */
void fail_index(reader* r, int64_t index, int limit, const char* what) {
    reader_fail(r, "%s %lld is not a valid index (limit %d)", what, (long long)index, limit);
}

void fail_number(reader* r, double value, double minimum, const char* what, int index) {
    reader_fail(r, "%s of %d is %g: it must be finite, at most %g in size and >= %g", what, index,
                value, CAROM_MAX_MAGNITUDE, minimum);
}

carom_vec2 get_vec2(reader* r, const char* what, int index) {
    carom_vec2 v;
    v.x = get_number(r, -CAROM_MAX_MAGNITUDE, what, index);
    v.y = get_number(r, -CAROM_MAX_MAGNITUDE, what, index);
    return v;
}

bool get_flag(reader* r, const char* what, int index) {
    uint8_t value = get_u8(r);
    if (!r->failed && value > 1) {
        reader_fail(r, "%s of %d is %u: it must be 0 or 1", what, index, value);
    }
    return value != 0;
}

carom_filter get_filter(reader* r, const char* what, int index) {
    carom_filter filter;
    filter.category = get_le(r, 8);
    filter.mask = get_le(r, 8);
    int64_t group = get_svar(r);
    if (!r->failed && (group < INT32_MIN || group > INT32_MAX)) {
        reader_fail(r, "%s group of %d is out of range", what, index);
    }
    filter.group = (int32_t)group;
    return filter;
}

/* ---- Part headers ----------------------------------------------------------------------- */

/* Read one part header at data[at]; a status with its message recorded on failure. */
static carom_status read_part_header(const uint8_t* data, size_t size, size_t at,
                                     part_header* out) {
    if (size - at < HEADER_SIZE) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: %zu bytes at offset %zu are too few for a part header (%d)",
                          size - at, at, HEADER_SIZE);
    }
    reader r = {data + at, HEADER_SIZE, 4, false, ""};
    bool is_scene = memcmp(data + at, SCENE_MAGIC, 4) == 0;
    if (!is_scene && memcmp(data + at, STATE_MAGIC, 4) != 0) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: no part starts at offset %zu (the magic is not \"" SCENE_MAGIC
                          "\" or \"" STATE_MAGIC "\")",
                          at);
    }
    uint64_t version = get_le(&r, 2);
    uint64_t flags = get_le(&r, 2);
    if (version < OLDEST_VERSION || version > CAROM_SNAPSHOT_VERSION) {
        return carom_fail(CAROM_ERROR_SNAPSHOT_VERSION,
                          "snapshot: the %s part is format version %llu; this build of carom "
                          "reads versions %d to %d",
                          is_scene ? "scene" : "state", (unsigned long long)version, OLDEST_VERSION,
                          CAROM_SNAPSHOT_VERSION);
    }
    out->version = (int)version;
    if (flags != 0) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: the %s part's header flags are %llu: they must be 0",
                          is_scene ? "scene" : "state", (unsigned long long)flags);
    }
    uint64_t payload_size = get_le(&r, 8);
    out->is_scene = is_scene;
    out->checksum = get_le(&r, 8);
    out->scene_checksum = get_le(&r, 8);
    if (payload_size > size - at - HEADER_SIZE || payload_size < COUNTS_SIZE) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: the %s part says %llu payload bytes but only %zu follow: "
                          "the buffer is truncated",
                          is_scene ? "scene" : "state", (unsigned long long)payload_size,
                          size - at - HEADER_SIZE);
    }
    out->payload_size = (size_t)payload_size;
    out->payload = data + at + HEADER_SIZE;
    uint64_t actual = carom_snapshot_checksum(out->payload, out->payload_size);
    if (actual != out->checksum) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: the %s part's checksum is %016llx but its bytes give "
                          "%016llx: it was damaged",
                          is_scene ? "scene" : "state", (unsigned long long)out->checksum,
                          (unsigned long long)actual);
    }
    if (is_scene && out->scene_checksum != out->checksum) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: the scene part's own checksum fields disagree");
    }
    reader counts = {out->payload, COUNTS_SIZE, 0, false, ""};
    out->body_count = (uint32_t)get_le(&counts, 4);
    out->second_count = (uint32_t)get_le(&counts, 4);
    out->step_count = (uint32_t)get_le(&counts, 4);
    if (out->body_count > INT32_MAX || out->second_count > INT32_MAX ||
        out->step_count > INT32_MAX) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: the %s part's counts (%u, %u, %u) are beyond what a world "
                          "holds",
                          is_scene ? "scene" : "state", out->body_count, out->second_count,
                          out->step_count);
    }
    return CAROM_OK;
}

carom_status split_parts(const void* data, size_t size, part_set* out) {
    memset(out, 0, sizeof(*out));
    if (data == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "snapshot data is NULL");
    }
    size_t at = 0;
    for (int i = 0; i < 2 && at < size; ++i) {
        part_header header;
        carom_status status = read_part_header(data, size, at, &header);
        if (status != CAROM_OK) {
            return status;
        }
        if (header.is_scene ? (out->has_scene || out->has_state) : out->has_state) {
            return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                              "snapshot: a %s part at offset %zu is out of place: a buffer is a "
                              "scene part, a state part, or a scene part then a state part",
                              header.is_scene ? "scene" : "state", at);
        }
        if (header.is_scene) {
            out->scene = header;
            out->has_scene = true;
        } else {
            out->state = header;
            out->has_state = true;
        }
        at += HEADER_SIZE + header.payload_size;
    }
    if (at != size || (!out->has_scene && !out->has_state)) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: %zu bytes follow the parts (or none were found): the "
                          "buffer holds more than a snapshot",
                          size - at);
    }
    if (out->has_scene && out->has_state && out->state.version != out->scene.version) {
        return carom_fail(CAROM_ERROR_INVALID_SNAPSHOT,
                          "snapshot: the scene part is format version %d but the state part %d: "
                          "they were not saved together",
                          out->scene.version, out->state.version);
    }
    if (out->has_scene && out->has_state && out->state.scene_checksum != out->scene.checksum) {
        return carom_fail(CAROM_ERROR_SCENE_MISMATCH,
                          "snapshot: the state part belongs to scene %016llx, not to the scene "
                          "part given with it (%016llx)",
                          (unsigned long long)out->state.scene_checksum,
                          (unsigned long long)out->scene.checksum);
    }
    return CAROM_OK;
}
