/* The command line's arguments, read strictly (docs/cli.md): every problem is reported on its
 * own line of stderr as "carom: ...", and the command refused once all were read. Shared by the
 * commands (carom.c: run and resume; render_command.c: render). */
#ifndef CAROM_TOOLS_ARGUMENTS_H
#define CAROM_TOOLS_ARGUMENTS_H

#include <stdbool.h>

typedef struct arguments {
    int argc;
    char** argv;
    int next;        /* index of the next argument to read */
    int error_count; /* every problem is reported, then the run refused */
} arguments;

/* "carom: " and the message on stderr, counted in args. */
void argument_error(arguments* args, const char* format, ...) __attribute__((format(printf, 2, 3)));

/* A whole decimal integer in [minimum, maximum]: no sign games, no trailing text. */
bool parse_integer(const char* text, long long minimum, long long maximum, int* out);

/* A finite decimal number with nothing after it. */
bool parse_real(const char* text, double* out);

/* The value of an option: after '=' in "--steps=5", or the next argument. NULL (reported) when
 * missing. */
const char* option_value(arguments* args, const char* name, const char* inline_value);

/* The option's value into *out, an integer in [minimum, maximum]; value NULL: nothing to do
 * (option_value reported it). Given twice, or out of range: reported. */
void parse_count_option(arguments* args, const char* name, const char* value, long long minimum,
                        long long maximum, int* out, bool* given);

/* The same for a number of seconds, > 0 (>= 0 when zero_allowed) and at most 1e12. */
void parse_seconds_option(arguments* args, const char* name, const char* value, bool zero_allowed,
                          double* out, bool* given);

/* The same for a file name: not empty, not given twice. */
void parse_path_option(arguments* args, const char* name, const char* value, const char** out);

/* An option the command does not have, reported with the nearest of its `count` known options
 * when one is within two edits: "unknown option '--hsah'; did you mean --hash?". */
void refuse_unknown_option(arguments* args, const char* argument, const char* name,
                           const char* const* known, int count);

#endif
