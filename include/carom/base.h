/* carom: base definitions shared by every public header.
 *
 * Version, the export macro, status codes, the allocator hook and the assert hook.
 * Conventions used by the whole API (stated once here and in docs/guide.md):
 * SI units (metres, kilograms, seconds, radians), +y up, angles counter-clockwise,
 * polygons wound counter-clockwise. */
#ifndef CAROM_BASE_H
#define CAROM_BASE_H

#include <stddef.h>
#include <stdint.h>

/* The release, as in meson.build's project version (checked there) and CHANGELOG.md. */
#define CAROM_VERSION_MAJOR 0
#define CAROM_VERSION_MINOR 2
#define CAROM_VERSION_PATCH 0

/* Marks the public API. The shared library is built with hidden visibility, so only these
 * symbols are exported from it.
 * On Windows a DLL exports and imports its functions explicitly: the build of carom's DLL
 * defines CAROM_BUILD_DLL (dllexport); a program that links the DLL defines CAROM_DLL
 * (dllimport: carom.pc and caromConfig.cmake add it); a program that links the static library
 * defines neither. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(CAROM_BUILD_DLL)
#define CAROM_API __declspec(dllexport)
#elif defined(CAROM_DLL)
#define CAROM_API __declspec(dllimport)
#else
#define CAROM_API
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define CAROM_API __attribute__((visibility("default")))
#else
#define CAROM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every fallible call returns one of these. The X-macro keeps codes and their names in one list
 * so that carom_status_str() can never drift from the enum. */
#define CAROM_STATUS_LIST(X)                                                                       \
    X(CAROM_OK, "ok")                                                                              \
    X(CAROM_ERROR_INVALID_ID, "invalid id: null, stale (destroyed) or from another world")         \
    X(CAROM_ERROR_WORLD_LOCKED, "the world is locked: in the middle of a step, or calling back "   \
                                "from a query or debug draw")                                      \
    X(CAROM_ERROR_NOT_FINITE, "a number is NaN or infinite")                                       \
    X(CAROM_ERROR_OUT_OF_RANGE, "a number is outside its allowed range")                           \
    X(CAROM_ERROR_INVALID_POLYGON, "the polygon is not convex, or has duplicate or collinear "     \
                                   "vertices")                                                     \
    X(CAROM_ERROR_TOO_MANY_VERTICES, "the polygon has more vertices than CAROM_MAX_POLYGON_"       \
                                     "VERTICES")                                                   \
    X(CAROM_ERROR_NO_MASS, "a dynamic body has no mass")                                           \
    X(CAROM_ERROR_INVALID_DEF, "the definition was not made by its carom_default_*_def() "         \
                               "function")                                                         \
    X(CAROM_ERROR_TOO_MANY_WORLDS, "too many worlds exist at once")                                \
    X(CAROM_ERROR_NULL_ARGUMENT, "a required pointer argument is NULL")                            \
    X(CAROM_ERROR_DETERMINISM_MISMATCH, "this build's results differ from carom's reference "      \
                                        "bits (see docs/determinism.md)")                          \
    X(CAROM_ERROR_BUFFER_TOO_SMALL, "the output buffer is too small")                              \
    X(CAROM_ERROR_INVALID_SNAPSHOT, "the snapshot is truncated, corrupt or inconsistent")          \
    X(CAROM_ERROR_SNAPSHOT_VERSION, "the snapshot was written by an unsupported format version")   \
    X(CAROM_ERROR_SCENE_MISMATCH, "the snapshot's state belongs to a different scene")             \
    X(CAROM_ERROR_TOO_MANY_CONTACTS, "the step would make more contacts than the world's "         \
                                     "max_contacts")

typedef enum carom_status {
#define CAROM_STATUS_ENUM(code, text) code,
    CAROM_STATUS_LIST(CAROM_STATUS_ENUM)
#undef CAROM_STATUS_ENUM
        CAROM_STATUS_COUNT
} carom_status;

/* The largest magnitude any number passed to carom may have (positions in m, velocities in m/s,
 * sizes, densities, forces...). Larger finite values are refused with CAROM_ERROR_OUT_OF_RANGE
 * rather than left to overflow to infinity inside a step. */
#define CAROM_MAX_MAGNITUDE 1e12

/* Speed limits, a rule of every world: no step leaves a body's center of mass moving faster
 * than CAROM_MAX_SPEED (m/s) or the body turning faster than CAROM_MAX_ANGULAR_SPEED (rad/s); a
 * faster velocity is scaled down to the limit, its direction kept. They are twice
 * CAROM_MAX_MAGNITUDE, so every velocity the API accepts (each component within
 * CAROM_MAX_MAGNITUDE) is within them and the rule only ever slows what the simulation itself
 * made: a body under a gravity scale of 1e12, or bounced between bodies of mass ratio 1e16, could
 * otherwise gain speed step after step without bound until the arithmetic overflowed. With them,
 * each step starts from bounded values, and no value of a world of bodies and shapes becomes NaN
 * or infinite, whatever accepted inputs built it (docs/guide.md, Limits, says what was measured,
 * and the one exception left: joints at extreme inputs). */
#define CAROM_MAX_SPEED (2.0 * CAROM_MAX_MAGNITUDE)
#define CAROM_MAX_ANGULAR_SPEED (2.0 * CAROM_MAX_MAGNITUDE)

/* A short fixed description of a status code. Never NULL; unknown codes give "unknown status". */
CAROM_API const char* carom_status_str(carom_status status);

/* The status of the last call on this thread that failed, and its message, which names the
 * offending value and says how to fix it. Only failures write these; a success leaves them as
 * they were, so clear them with carom_clear_last_error() before a call whose message you want.
 * The message is thread-local storage, valid until the next failing call on the same thread.
 * Thread-local rather than per world so that a call with an invalid world id can report too. */
CAROM_API carom_status carom_last_status(void);
CAROM_API const char* carom_last_error(void);
CAROM_API void carom_clear_last_error(void);

/* Allocator hook: one realloc-style function for every allocation the engine makes.
 * realloc_fn(user, ptr, size): ptr NULL allocates, size 0 frees (return value ignored),
 * otherwise resizes. It must not return NULL for a non-zero size: carom treats running out of
 * memory as fatal and aborts through the assert handler. Set it before creating any world; it
 * applies to all worlds. NULL restores the libc allocator. */
typedef void* carom_realloc_fn(void* user, void* ptr, size_t size);
CAROM_API void carom_set_allocator(carom_realloc_fn* realloc_fn, void* user);

/* Assert hook, called when an internal invariant breaks (a bug in carom, not a user error: user
 * errors always return a status). Return non-zero to abort (the default), zero to continue.
 * Internal asserts are compiled in unless NDEBUG is defined (meson: -Dasserts=true keeps them). */
typedef int carom_assert_fn(const char* condition, const char* file, int line);
CAROM_API void carom_set_assert_handler(carom_assert_fn* handler);

/* The library's version as "major.minor.patch". */
CAROM_API const char* carom_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
