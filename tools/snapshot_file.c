/* Snapshot files (see snapshot_file.h for the layout). */
#include "snapshot_file.h"

#include "scene.h"

#include <carom/carom.h>

#include <math.h>
#include <stdarg.h>
#include <string.h>

static const char magic[SNAPSHOT_FILE_MAGIC_SIZE] = {'C', 'A', 'R', 'O', 'M', 'C', 'L', 'I'};

/* Bytes of the fixed fields before the scene text, between it and the engine part, and after. */
enum { HEAD_BYTES = 40, ENGINE_SIZE_BYTES = 8, CHECKSUM_BYTES = 8 };

static uint64_t fnv1a(uint64_t hash, const void* data, size_t size) {
    const unsigned char* bytes = data;
    for (size_t i = 0; i < size; ++i) {
        hash = (hash ^ bytes[i]) * 0x100000001b3u;
    }
    return hash;
}

#define FNV_OFFSET_BASIS 0xcbf29ce484222325u

/* ---- Writing ------------------------------------------------------------------------------ */

/* Writes bytes while keeping the checksum of everything written so far. */
typedef struct writer {
    FILE* file;
    uint64_t hash;
    bool ok;
} writer;

static void put_bytes(writer* w, const void* data, size_t size) {
    w->hash = fnv1a(w->hash, data, size);
    w->ok = w->ok && fwrite(data, 1, size, w->file) == size;
}

/* value in `size` bytes, least significant first, whatever the machine's byte order. */
static void put_uint(writer* w, uint64_t value, int size) {
    unsigned char bytes[8];
    for (int i = 0; i < size; ++i) {
        bytes[i] = (unsigned char)(value >> (8 * i));
    }
    put_bytes(w, bytes, (size_t)size);
}

static uint64_t double_bits(double value) {
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(bits)); /* the IEEE-754 bits: one double, not a struct */
    return bits;
}

uint64_t snapshot_file_size(const snapshot_file* snapshot) {
    return (uint64_t)HEAD_BYTES + snapshot->scene_size + ENGINE_SIZE_BYTES + snapshot->engine_size +
           CHECKSUM_BYTES;
}

void snapshot_file_write(FILE* file, const snapshot_file* snapshot) {
    writer w = {file, FNV_OFFSET_BASIS, true};
    put_bytes(&w, magic, sizeof(magic));
    put_uint(&w, SNAPSHOT_FILE_VERSION, 4);
    put_uint(&w, (uint64_t)snapshot->substeps, 4);
    put_uint(&w, double_bits(snapshot->dt), 8);
    put_uint(&w, snapshot->step, 8);
    put_uint(&w, snapshot->scene_size, 8);
    put_bytes(&w, snapshot->scene, snapshot->scene_size);
    put_uint(&w, snapshot->engine_size, 8);
    put_bytes(&w, snapshot->engine, snapshot->engine_size);
    put_uint(&w, w.hash, 8); /* the checksum covers everything before it, so it goes last */
}

/* ---- Reading ------------------------------------------------------------------------------ */

typedef struct reader {
    const unsigned char* data;
    size_t size;
    size_t offset; /* of the next field */
    char* reason;
    size_t reason_size;
} reader;

static bool refuse(reader* r, const char* format, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(reader* r, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(r->reason, r->reason_size, format, args);
    va_end(args);
    return false;
}

/* The next `size` bytes, named `what` if the file ends first. A length field that was
 * corrupted looks the same as a file cut short, so the message allows for both. */
static bool take(reader* r, uint64_t size, const char* what, const unsigned char** out) {
    if (size > r->size - r->offset) {
        return refuse(r,
                      "truncated or corrupt snapshot: the %s (%ju bytes from byte %zu) runs past "
                      "the end of the file (%zu bytes)",
                      what, (uintmax_t)size, r->offset, r->size);
    }
    *out = r->data + r->offset;
    r->offset += (size_t)size;
    return true;
}

static bool take_uint(reader* r, int size, const char* what, uint64_t* out) {
    const unsigned char* bytes = NULL;
    if (!take(r, (uint64_t)size, what, &bytes)) {
        return false;
    }
    uint64_t value = 0;
    for (int i = 0; i < size; ++i) {
        value |= (uint64_t)bytes[i] << (8 * i);
    }
    *out = value;
    return true;
}

static bool check_magic(reader* r) {
    if (r->size == 0) {
        return refuse(r, "not a carom snapshot: the file is empty");
    }
    size_t compared = r->size < sizeof(magic) ? r->size : sizeof(magic);
    if (memcmp(r->data, magic, compared) != 0) {
        return refuse(r, "not a carom snapshot: it does not start with \"CAROMCLI\" (a snapshot "
                         "is written by carom run --save; a scene file is run with carom run)");
    }
    const unsigned char* bytes = NULL;
    return take(r, sizeof(magic), "magic", &bytes);
}

/* The fields in file order, ranges unchecked: the checksum is checked first, so that a flipped
 * bit is reported as corruption rather than as whichever value it happened to land in. */
static bool read_fields(reader* r, snapshot_file* out, uint64_t* version, uint64_t* substeps,
                        uint64_t* dt_bits) {
    uint64_t scene_size = 0, engine_size = 0;
    const unsigned char* scene = NULL;
    bool ok = take_uint(r, 4, "format version", version);
    if (ok && *version != SNAPSHOT_FILE_VERSION) {
        return refuse(r, "snapshot file format version %ju; this carom reads version %d",
                      (uintmax_t)*version, SNAPSHOT_FILE_VERSION);
    }
    ok = ok && take_uint(r, 4, "substeps", substeps) && take_uint(r, 8, "dt", dt_bits) &&
         take_uint(r, 8, "step count", &out->step) && take_uint(r, 8, "scene size", &scene_size) &&
         take(r, scene_size, "scene text", &scene) &&
         take_uint(r, 8, "engine snapshot size", &engine_size) &&
         take(r, engine_size, "engine snapshot", &out->engine);
    out->scene = (const char*)scene;
    out->scene_size = (size_t)scene_size;
    out->engine_size = (size_t)engine_size;
    return ok;
}

static bool check_checksum(reader* r) {
    size_t covered = r->offset;
    uint64_t stored = 0;
    if (!take_uint(r, 8, "checksum", &stored)) {
        return false;
    }
    if (r->offset < r->size) {
        size_t extra = r->size - r->offset;
        return refuse(r, "corrupt snapshot: %zu byte%s after its end (byte %zu)", extra,
                      extra == 1 ? "" : "s", r->offset);
    }
    if (fnv1a(FNV_OFFSET_BASIS, r->data, covered) != stored) {
        return refuse(r, "corrupt snapshot: the checksum does not match the contents");
    }
    return true;
}

static bool check_ranges(reader* r, snapshot_file* out, uint64_t substeps, uint64_t dt_bits) {
    memcpy(&out->dt, &dt_bits, sizeof(out->dt));
    if (substeps > 64) {
        return refuse(r, "corrupt snapshot: substeps %ju, not 0 to 64", (uintmax_t)substeps);
    }
    out->substeps = (int)substeps;
    if (!(isfinite(out->dt) && out->dt > 0.0 && out->dt <= CAROM_MAX_MAGNITUDE)) {
        return refuse(r, "corrupt snapshot: dt %g, not > 0 and at most 1e12", out->dt);
    }
    if (out->step > SNAPSHOT_FILE_MAX_STEP) {
        return refuse(r, "corrupt snapshot: step count %ju, more than 2^53 - 1",
                      (uintmax_t)out->step);
    }
    if (out->scene_size == 0 || out->scene_size > SCENE_MAX_FILE_BYTES) {
        return refuse(r, "corrupt snapshot: %zu bytes of scene text, not 1 to %u", out->scene_size,
                      SCENE_MAX_FILE_BYTES);
    }
    return true;
}

/* The engine checks its own part (part checksums, version); the CLI needs both parts, since it
 * restores into a world it builds from the scene text. */
static bool check_engine_part(reader* r, snapshot_file* out) {
    carom_snapshot_info info;
    if (carom_snapshot_get_info(out->engine, out->engine_size, &info) != CAROM_OK) {
        return refuse(r, "the engine refused the snapshot: %s", carom_last_error());
    }
    if (info.scene_size == 0 || info.state_size == 0) {
        return refuse(r, "corrupt snapshot: the engine snapshot lacks its %s part",
                      info.scene_size == 0 ? "scene" : "state");
    }
    out->body_count = info.body_count;
    return true;
}

bool snapshot_file_parse(const unsigned char* data, size_t size, snapshot_file* out, char* reason,
                         size_t reason_size) {
    reader r = {data, size, 0, reason, reason_size};
    memset(out, 0, sizeof(*out));
    uint64_t version = 0, substeps = 0, dt_bits = 0;
    return check_magic(&r) && read_fields(&r, out, &version, &substeps, &dt_bits) &&
           check_checksum(&r) && check_ranges(&r, out, substeps, dt_bits) &&
           check_engine_part(&r, out);
}

bool snapshot_file_has_magic(const void* head, size_t size) {
    return size >= sizeof(magic) && memcmp(head, magic, sizeof(magic)) == 0;
}
