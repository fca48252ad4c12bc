/* Text forms shared by the scene loader and the writers (see format.h). */
#include "format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void format_double(double value, char out[FORMAT_DOUBLE_SIZE]) {
    /* 17 significant digits always identify a double; fewer usually do and read better. */
    for (int precision = 15; precision < 17; ++precision) {
        snprintf(out, FORMAT_DOUBLE_SIZE, "%.*g", precision, value);
        if (strtod(out, NULL) == value) {
            return;
        }
    }
    snprintf(out, FORMAT_DOUBLE_SIZE, "%.17g", value);
}

void write_json_string(FILE* file, const char* value) {
    fputc('"', file);
    for (const unsigned char* p = (const unsigned char*)value; *p != '\0'; ++p) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', file);
            fputc(*p, file);
        } else if (*p < 0x20) {
            fprintf(file, "\\u%04x", *p);
        } else {
            fputc(*p, file);
        }
    }
    fputc('"', file);
}

void write_csv_field(FILE* file, const char* value) {
    if (strpbrk(value, ",\"\r\n") == NULL) {
        fputs(value, file);
        return;
    }
    fputc('"', file);
    for (const char* p = value; *p != '\0'; ++p) {
        if (*p == '"') {
            fputc('"', file);
        }
        fputc(*p, file);
    }
    fputc('"', file);
}

const char* quote_for_message(const char* text, char* out, size_t out_size) {
    const size_t shown_bytes = 40;
    size_t used = 0;
    /* Each input byte takes at most 4 output bytes ("\x1b"); keep room for `..."` and '\0'. */
    out[used++] = '"';
    size_t i = 0;
    /* Past the limit, finish a UTF-8 sequence rather than cut a character in half. */
    for (; text[i] != '\0' && (i < shown_bytes || ((unsigned char)text[i] & 0xc0) == 0x80) &&
           used + 4 + 5 < out_size;
         ++i) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == 0x7f) {
            used += (size_t)snprintf(out + used, out_size - used, "\\x%02x", c);
        } else if (c == '"' || c == '\\') {
            out[used++] = '\\';
            out[used++] = (char)c;
        } else {
            out[used++] = (char)c;
        }
    }
    if (text[i] != '\0') {
        memcpy(out + used, "...", 3);
        used += 3;
    }
    out[used++] = '"';
    out[used] = '\0';
    return out;
}
