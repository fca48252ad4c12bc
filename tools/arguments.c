/* The command line's arguments: see arguments.h. */
#include "arguments.h"

#include "scene.h"

#include <carom/carom.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void argument_error(arguments* args, const char* format, ...) {
    va_list list;
    va_start(list, format);
    fputs("carom: ", stderr);
    vfprintf(stderr, format, list);
    fputc('\n', stderr);
    va_end(list);
    args->error_count += 1;
}

bool parse_integer(const char* text, long long minimum, long long maximum, int* out) {
    if (text[0] < '0' || text[0] > '9') {
        return false;
    }
    errno = 0;
    char* end = NULL;
    long long value = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < minimum || value > maximum) {
        return false;
    }
    *out = (int)value;
    return true;
}

bool parse_real(const char* text, double* out) {
    if (text[0] == '\0' || text[0] == ' ') {
        return false;
    }
    char* end = NULL;
    double value = strtod(text, &end);
    if (*end != '\0' || !isfinite(value)) {
        return false;
    }
    *out = value;
    return true;
}

const char* option_value(arguments* args, const char* name, const char* inline_value) {
    if (inline_value != NULL) {
        return inline_value;
    }
    if (args->next < args->argc) {
        return args->argv[args->next++];
    }
    argument_error(args, "%s needs a value", name);
    return NULL;
}

void parse_count_option(arguments* args, const char* name, const char* value, long long minimum,
                        long long maximum, int* out, bool* given) {
    if (value == NULL) {
        return;
    }
    if (*given) {
        argument_error(args, "%s is given twice", name);
    }
    *given = true;
    if (!parse_integer(value, minimum, maximum, out)) {
        argument_error(args, "%s must be an integer from %lld to %lld, got '%s'", name, minimum,
                       maximum, value);
    }
}

void parse_seconds_option(arguments* args, const char* name, const char* value, bool zero_allowed,
                          double* out, bool* given) {
    if (value == NULL) {
        return;
    }
    if (*given) {
        argument_error(args, "%s is given twice", name);
    }
    *given = true;
    double seconds = 0.0;
    bool ok = parse_real(value, &seconds) && seconds <= CAROM_MAX_MAGNITUDE &&
              (zero_allowed ? seconds >= 0.0 : seconds > 0.0);
    if (!ok) {
        argument_error(args, "%s must be a number of seconds %s 0 and at most 1e12, got '%s'", name,
                       zero_allowed ? ">=" : ">", value);
    }
    *out = seconds;
}

void parse_path_option(arguments* args, const char* name, const char* value, const char** out) {
    if (value == NULL) {
        return;
    }
    if (*out != NULL) {
        argument_error(args, "%s is given twice", name);
    }
    if (value[0] == '\0') {
        argument_error(args, "%s needs a file name, got an empty one", name);
    }
    *out = value;
}

void refuse_unknown_option(arguments* args, const char* argument, const char* name,
                           const char* const* known, int count) {
    for (int i = 0; i < count; ++i) {
        if (scene_edit_distance(name, known[i]) <= 2) {
            argument_error(args, "unknown option '%s'; did you mean %s?", argument, known[i]);
            return;
        }
    }
    argument_error(args, "unknown option '%s'", argument);
}
