/* Text forms shared by the scene loader and the writers: numbers that read back to the same
 * double, JSON strings, CSV fields, and file text quoted safely into a message. */
#ifndef CAROM_TOOLS_FORMAT_H
#define CAROM_TOOLS_FORMAT_H

#include <stddef.h>
#include <stdio.h>

/* Room for any double format_double() writes, terminator included. */
#define FORMAT_DOUBLE_SIZE 32

/* The shortest of %.15g, %.16g and %.17g that strtod reads back to exactly value (%.17g always
 * does), so files stay readable ("0.6", not "0.59999999999999998") and still round-trip. value
 * must be finite: the output is JSON and CSV, which have no spelling for NaN or infinity. */
void format_double(double value, char out[FORMAT_DOUBLE_SIZE]);

/* value as a JSON string literal: quotes, backslashes and control characters escaped. */
void write_json_string(FILE* file, const char* value);

/* value as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote
 * or a line break. */
void write_csv_field(FILE* file, const char* value);

/* A buffer size that quote_for_message() never fills up. */
#define QUOTE_SIZE 192

/* text from a scene file, made safe to print in a one-line message: quoted, control characters
 * and quotes escaped, cut to about 40 bytes with "..." after. Returns out (QUOTE_SIZE bytes). */
const char* quote_for_message(const char* text, char* out, size_t out_size);

#endif
