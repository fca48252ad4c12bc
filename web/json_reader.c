/* The part of cJSON's API that the scene loader (tools/scene*.c) calls, for the WebAssembly
 * package (docs/web.md).
 *
 * Why this file exists: natively the loader links Debian's libcjson, but Debian ships cJSON as a
 * shared library and a header only (libcjson-dev has no source and no static archive), and
 * emscripten cannot link a Linux shared object. Rather than download cJSON's source, the package
 * compiles this reader instead: it builds the same tree of `cJSON` nodes (the struct and the
 * type bits come from Debian's own <cjson/cJSON.h>), so the loader's code, its checks and its
 * messages are the native ones unchanged. Only the functions the loader uses are here:
 * cJSON_ParseWithLengthOpts, cJSON_Delete and the cJSON_Is* tests.
 *
 * It reads JSON as cJSON 1.7 does, leniencies included (numbers as strtod takes them, any byte
 * up to the space as white space, raw control characters in strings, a UTF-8 byte order mark),
 * so that a file loads in the browser exactly when it loads natively. Numbers go through strtod
 * as cJSON's do, so every number reads as the same double (both C libraries round correctly);
 * the node tests (web/tests/node) compare every scene's hash with `carom run --hash`, and the
 * message lines of malformed texts with the native ones. A parse failure reports where it stopped
 * through return_parse_end, which the loader turns into its "invalid JSON at ..." line. Nesting
 * is bounded by the loader's check before parsing (SCENE_MAX_DEPTH). */
#include <cjson/cJSON.h>

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char* at;
    const char* end;
} reader;

/* White space as cJSON skips it: every byte up to the space (control characters included). */
static bool is_space(char c) {
    return (unsigned char)c <= 32;
}

static void skip_space(reader* r) {
    while (r->at < r->end && is_space(*r->at)) {
        ++r->at;
    }
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

static cJSON* new_item(int type) {
    cJSON* item = calloc(1, sizeof(cJSON));
    if (item != NULL) {
        item->type = type;
    }
    return item;
}

static bool match_word(reader* r, const char* word) {
    size_t length = strlen(word);
    if ((size_t)(r->end - r->at) < length || memcmp(r->at, word, length) != 0) {
        return false;
    }
    r->at += length;
    return true;
}

/* A number as cJSON reads one, so that the same texts load: the run of characters that can
 * appear in a number (digits, + - e E .) is handed to strtod, and the number ends where strtod
 * stopped. So cJSON's leniencies are kept ("01", "1." and "1.e5" read as numbers), and a run
 * that strtod cannot start on is an error there. */
static bool is_number_char(char c) {
    return is_digit(c) || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

static cJSON* parse_number(reader* r) {
    const char* start = r->at;
    const char* p = start;
    while (p < r->end && is_number_char(*p)) {
        ++p;
    }
    /* strtod wants a terminated string; the text after the run may be anything. */
    size_t length = (size_t)(p - start);
    char small[64];
    char* copy = length < sizeof(small) ? small : malloc(length + 1);
    if (copy == NULL) {
        return NULL;
    }
    memcpy(copy, start, length);
    copy[length] = '\0';
    char* stop = NULL;
    double value = strtod(copy, &stop);
    size_t used = (size_t)(stop - copy);
    if (copy != small) {
        free(copy);
    }
    if (used == 0) {
        return NULL;
    }
    cJSON* item = new_item(cJSON_Number);
    if (item == NULL) {
        return NULL;
    }
    item->valuedouble = value;
    item->valueint = value >= (double)INT_MAX   ? INT_MAX
                     : value <= (double)INT_MIN ? INT_MIN
                                                : (int)value;
    r->at = start + used;
    return item;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Four hex digits after \u; -1 when they are not. */
static long read_hex4(const char* p, const char* end) {
    if (end - p < 4) {
        return -1;
    }
    long value = 0;
    for (int i = 0; i < 4; ++i) {
        int digit = hex_digit(p[i]);
        if (digit < 0) {
            return -1;
        }
        value = value * 16 + digit;
    }
    return value;
}

static size_t put_utf8(char* out, unsigned long code) {
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char)(0xC0 | (code >> 6));
        out[1] = (char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | (code >> 12));
        out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code >> 18));
    out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/* One escape after a backslash at r->at (which points at the character after it); the UTF-8
 * bytes go to out. 0 on a bad escape, with r->at where it went wrong. */
static size_t read_escape(reader* r, char* out) {
    char c = *r->at;
    static const char plain[] = "\"\\/bfnrt";
    static const char meant[] = "\"\\/\b\f\n\r\t";
    const char* found = c != '\0' ? strchr(plain, c) : NULL;
    if (found != NULL) {
        ++r->at;
        out[0] = meant[found - plain];
        return 1;
    }
    if (c != 'u') {
        return 0;
    }
    long code = read_hex4(r->at + 1, r->end);
    if (code < 0 || (code >= 0xDC00 && code <= 0xDFFF)) {
        return 0;
    }
    r->at += 5;
    if (code >= 0xD800 && code <= 0xDBFF) { /* a high surrogate needs its low one */
        long low = r->end - r->at >= 2 && r->at[0] == '\\' && r->at[1] == 'u'
                       ? read_hex4(r->at + 2, r->end)
                       : -1;
        if (low < 0xDC00 || low > 0xDFFF) {
            return 0;
        }
        r->at += 6;
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    return put_utf8(out, (unsigned long)code);
}

/* A string at r->at (the opening quote), unescaped into a new terminated buffer. */
static char* parse_string_text(reader* r) {
    const char* p = r->at + 1;
    while (p < r->end && *p != '"') { /* the closing quote: escapes never grow, so the raw */
        p += *p == '\\' && p + 1 < r->end ? 2 : 1; /* length bounds the unescaped one */
    }
    if (p >= r->end) {
        ++r->at; /* cJSON reports an unterminated string just inside its opening quote */
        return NULL;
    }
    char* text = malloc((size_t)(p - r->at) + 1);
    if (text == NULL) {
        return NULL;
    }
    size_t used = 0;
    ++r->at;
    while (*r->at != '"') {
        unsigned char c = (unsigned char)*r->at;
        if (c != '\\') { /* raw control characters pass, as in cJSON */
            text[used++] = (char)c;
            ++r->at;
            continue;
        }
        const char* backslash = r->at++;
        size_t written = read_escape(r, text + used);
        if (written == 0) {
            r->at = backslash; /* where cJSON reports a bad escape */
            free(text);
            return NULL;
        }
        used += written;
    }
    ++r->at;
    text[used] = '\0';
    return text;
}

static cJSON* parse_value(reader* r);

/* Appends child to the list ending at *last under parent. */
static void append_child(cJSON* parent, cJSON** last, cJSON* child) {
    if (*last == NULL) {
        parent->child = child;
    } else {
        (*last)->next = child;
        child->prev = *last;
    }
    *last = child;
    parent->child->prev = child; /* cJSON keeps the last child in the first one's prev */
}

static cJSON* parse_array(reader* r) {
    cJSON* array = new_item(cJSON_Array);
    if (array == NULL) {
        return NULL;
    }
    ++r->at;
    skip_space(r);
    if (r->at < r->end && *r->at == ']') {
        ++r->at;
        return array;
    }
    cJSON* last = NULL;
    for (;;) {
        skip_space(r);
        cJSON* element = parse_value(r);
        if (element == NULL) {
            cJSON_Delete(array);
            return NULL;
        }
        append_child(array, &last, element);
        skip_space(r);
        if (r->at < r->end && *r->at == ',') {
            ++r->at;
        } else if (r->at < r->end && *r->at == ']') {
            ++r->at;
            return array;
        } else {
            cJSON_Delete(array);
            return NULL;
        }
    }
}

static cJSON* parse_object(reader* r) {
    cJSON* object = new_item(cJSON_Object);
    if (object == NULL) {
        return NULL;
    }
    ++r->at;
    skip_space(r);
    if (r->at < r->end && *r->at == '}') {
        ++r->at;
        return object;
    }
    cJSON* last = NULL;
    for (;;) {
        skip_space(r);
        if (!(r->at < r->end && *r->at == '"')) {
            cJSON_Delete(object);
            return NULL;
        }
        char* key = parse_string_text(r);
        if (key == NULL) {
            cJSON_Delete(object);
            return NULL;
        }
        skip_space(r);
        if (!(r->at < r->end && *r->at == ':')) {
            free(key);
            cJSON_Delete(object);
            return NULL;
        }
        ++r->at;
        skip_space(r);
        cJSON* member = parse_value(r);
        if (member == NULL) {
            free(key);
            cJSON_Delete(object);
            return NULL;
        }
        member->string = key;
        append_child(object, &last, member);
        skip_space(r);
        if (r->at < r->end && *r->at == ',') {
            ++r->at;
        } else if (r->at < r->end && *r->at == '}') {
            ++r->at;
            return object;
        } else {
            cJSON_Delete(object);
            return NULL;
        }
    }
}

static cJSON* parse_value(reader* r) {
    if (r->at >= r->end) {
        return NULL;
    }
    char c = *r->at;
    if (c == '{') {
        return parse_object(r);
    }
    if (c == '[') {
        return parse_array(r);
    }
    if (c == '"') {
        char* text = parse_string_text(r);
        cJSON* item = text != NULL ? new_item(cJSON_String) : NULL;
        if (item == NULL) {
            free(text);
            return NULL;
        }
        item->valuestring = text;
        return item;
    }
    if (c == '-' || is_digit(c)) {
        return parse_number(r);
    }
    if (match_word(r, "true")) {
        return new_item(cJSON_True);
    }
    if (match_word(r, "false")) {
        return new_item(cJSON_False);
    }
    if (match_word(r, "null")) {
        return new_item(cJSON_NULL);
    }
    return NULL;
}

CJSON_PUBLIC(cJSON*)
cJSON_ParseWithLengthOpts(const char* value, size_t buffer_length, const char** return_parse_end,
                          cJSON_bool require_null_terminated) {
    if (value == NULL || buffer_length == 0) {
        return NULL;
    }
    reader r = {value, value + buffer_length};
    /* A terminator counted in buffer_length is not text. */
    if (r.end > r.at && r.end[-1] == '\0') {
        --r.end;
    }
    if (r.end - r.at >= 3 && memcmp(r.at, "\xEF\xBB\xBF", 3) == 0) {
        r.at += 3; /* a UTF-8 byte order mark, which cJSON skips */
    }
    skip_space(&r);
    cJSON* root = parse_value(&r);
    if (root != NULL && require_null_terminated) {
        skip_space(&r);
        if (r.at != r.end) {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    if (return_parse_end != NULL) {
        *return_parse_end = r.at;
    }
    return root;
}

CJSON_PUBLIC(void) cJSON_Delete(cJSON* item) {
    while (item != NULL) {
        cJSON* next = item->next;
        cJSON_Delete(item->child);
        free(item->valuestring);
        free(item->string);
        free(item);
        item = next;
    }
}

static int type_of(const cJSON* item) {
    return item != NULL ? item->type & 0xFF : cJSON_Invalid;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsBool(const cJSON* const item) {
    return (type_of(item) & (cJSON_True | cJSON_False)) != 0;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsTrue(const cJSON* const item) {
    return type_of(item) == cJSON_True;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsNull(const cJSON* const item) {
    return type_of(item) == cJSON_NULL;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsNumber(const cJSON* const item) {
    return type_of(item) == cJSON_Number;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsString(const cJSON* const item) {
    return type_of(item) == cJSON_String;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsArray(const cJSON* const item) {
    return type_of(item) == cJSON_Array;
}

CJSON_PUBLIC(cJSON_bool) cJSON_IsObject(const cJSON* const item) {
    return type_of(item) == cJSON_Object;
}
