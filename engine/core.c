/* Allocation, assert and error-reporting hooks, status names, and the one compiled copy of
 * stb_ds. Everything the engine allocates passes through carom_realloc(), which is what lets a
 * test count allocations in a step and lets an application bring its own allocator. */
#include "core.h"

#define STB_DS_IMPLEMENTATION
#include "carom/types.h"
#include "ds.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void* libc_realloc(void* user, void* pointer, size_t size) {
    (void)user;
    if (size == 0) {
        free(pointer);
        return NULL;
    }
    return realloc(pointer, size);
}

static carom_realloc_fn* realloc_hook = libc_realloc;
static void* realloc_user = NULL;
static carom_assert_fn* assert_hook = NULL;

void carom_set_allocator(carom_realloc_fn* realloc_fn, void* user) {
    realloc_hook = realloc_fn != NULL ? realloc_fn : libc_realloc;
    realloc_user = realloc_fn != NULL ? user : NULL;
}

void carom_set_assert_handler(carom_assert_fn* handler) { assert_hook = handler; }

void carom_assert_failed(const char* condition, const char* file, int line) {
    int should_abort = 1;
    if (assert_hook != NULL) {
        should_abort = assert_hook(condition, file, line);
    } else {
        fprintf(stderr, "carom: internal assertion failed: %s (%s:%d)\n", condition, file, line);
    }
    if (should_abort) {
        abort();
    }
}

void* carom_realloc(void* pointer, size_t size) {
    if (size == 0) {
        if (pointer != NULL) {
            realloc_hook(realloc_user, pointer, 0);
        }
        return NULL;
    }
    void* result = realloc_hook(realloc_user, pointer, size);
    if (result == NULL) {
        carom_assert_failed("out of memory", __FILE__, __LINE__);
        abort();
    }
    return result;
}

void* carom_alloc(size_t size) { return carom_realloc(NULL, size); }

void carom_free(void* pointer) {
    if (pointer != NULL) {
        realloc_hook(realloc_user, pointer, 0);
    }
}

static const char* const status_names[] = {
#define CAROM_STATUS_NAME(code, text) text,
    CAROM_STATUS_LIST(CAROM_STATUS_NAME)
#undef CAROM_STATUS_NAME
};
_Static_assert(sizeof(status_names) / sizeof(status_names[0]) == CAROM_STATUS_COUNT,
               "one name per status code");

const char* carom_status_str(carom_status status) {
    if ((int)status < 0 || status >= CAROM_STATUS_COUNT) {
        return "unknown status";
    }
    return status_names[status];
}

static _Thread_local carom_status last_status = CAROM_OK;
static _Thread_local char last_message[512];

carom_status carom_last_status(void) { return last_status; }
const char* carom_last_error(void) { return last_message; }

void carom_clear_last_error(void) {
    last_status = CAROM_OK;
    last_message[0] = '\0';
}

carom_status carom_fail(carom_status status, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(last_message, sizeof(last_message), format, args);
    va_end(args);
    last_status = status;
    return status;
}

carom_status carom_check_finite(double value, const char* what) {
    if (!isfinite(value)) {
        return carom_fail(CAROM_ERROR_NOT_FINITE, "%s is %g: it must be a finite number", what,
                          value);
    }
    if (fabs(value) > CAROM_MAX_MAGNITUDE) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "%s is %g: magnitudes above %g are refused, they overflow in a step",
                          what, value, CAROM_MAX_MAGNITUDE);
    }
    return CAROM_OK;
}

carom_status carom_check_polygon_points_finite(const carom_vec2* points, int count) {
    for (int i = 0; i < count; ++i) {
        char what[32];
        snprintf(what, sizeof(what), "polygon vertex %d", i);
        carom_status status = carom_check_finite_vec2(points[i].x, points[i].y, what);
        if (status != CAROM_OK) {
            return status;
        }
    }
    return CAROM_OK;
}

carom_status carom_check_finite_vec2(double x, double y, const char* what) {
    if (!isfinite(x) || !isfinite(y)) {
        return carom_fail(CAROM_ERROR_NOT_FINITE, "%s is (%g, %g): both must be finite numbers",
                          what, x, y);
    }
    if (fabs(x) > CAROM_MAX_MAGNITUDE || fabs(y) > CAROM_MAX_MAGNITUDE) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "%s is (%g, %g): magnitudes above %g are refused, they overflow in a "
                          "step",
                          what, x, y, CAROM_MAX_MAGNITUDE);
    }
    return CAROM_OK;
}

carom_status carom_check_non_negative(double value, const char* what) {
    carom_status status = carom_check_finite(value, what);
    if (status == CAROM_OK && value < 0.0) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s is %g: it must be >= 0", what, value);
    }
    return status;
}

carom_status carom_check_density(double value, const char* what) {
    carom_status status = carom_check_non_negative(value, what);
    if (status == CAROM_OK && value != 0.0 && value < CAROM_MIN_DENSITY) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "%s is %g kg/m^2: it must be 0 (no mass) or at least %g, below which "
                            "a body is too light for a step to stay finite",
                            what, value, CAROM_MIN_DENSITY);
    }
    return status;
}

carom_status carom_check_positive(double value, const char* what) {
    carom_status status = carom_check_finite(value, what);
    if (status == CAROM_OK && !(value > 0.0)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s is %g: it must be > 0", what, value);
    }
    return status;
}

carom_status carom_check_unit_interval(double value, const char* what) {
    carom_status status = carom_check_finite(value, what);
    if (status == CAROM_OK && (value < 0.0 || value > 1.0)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s is %g: it must be in [0, 1]", what,
                            value);
    }
    return status;
}

/* Spelled from base.h's numbers, so the string cannot drift from them (meson.build checks those
 * against the project version). */
#define CAROM_STRINGIFY(x) #x
#define CAROM_VERSION_TEXT(major, minor, patch)                                                    \
    CAROM_STRINGIFY(major) "." CAROM_STRINGIFY(minor) "." CAROM_STRINGIFY(patch)

const char* carom_version_string(void) {
    return CAROM_VERSION_TEXT(CAROM_VERSION_MAJOR, CAROM_VERSION_MINOR, CAROM_VERSION_PATCH);
}
