/* Runs a libFuzzer target without libFuzzer, in every build (gcc included): the kept corpus as
 * a regression test, and a short seeded fuzz from it on every CI run (docs/fuzzing.md).
 *
 *   driver [--seconds S] [--seed N] [--dict FILE] [--max-len BYTES] [--timeout SECONDS]
 *          FILE_OR_DIRECTORY...
 *
 * First every file goes through LLVMFuzzerTestOneInput once, in sorted order: the inputs of past
 * findings stay fixed. With --seconds S it then runs mutants of those inputs for S seconds:
 * byte flips, inserts, erases, copies, interesting numbers in text and in binary, dictionary
 * words, splices of two inputs, a few at a time, through the target's LLVMFuzzerCustomMutator
 * when it has one (fuzz_snapshot's, which keeps the part checksums right). There is no coverage
 * feedback (that is what libFuzzer adds, with clang); what this buys is that every CI run tries
 * some ten thousand new inputs under the sanitizers.
 *
 * The mutants follow from the seed and the corpus alone: the same seed gives the same sequence
 * of inputs, so a failure is reproduced with the same seed (the time limit only decides how far
 * into the sequence a run gets). The target traps or aborts on a broken property; then, and on
 * a sanitizer's report, a crash, or an input running longer than the timeout, the input is
 * saved as crash-<target>-seed<seed>-<number> in the current folder and its path printed, for
 * `driver THAT_FILE` (or the libFuzzer build) to replay. Prints how many inputs ran. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);
/* Defined by some targets only. */
int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
    __attribute__((weak));
/* In the sanitizer runtimes only: called when a sanitizer stops the process. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/* ---- Random numbers: splitmix64, the whole state in one word, the same on every machine ---- */

static uint64_t random_state;

static uint64_t next_random(void) {
    uint64_t z = (random_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0); the bias of the modulo is irrelevant here. */
static size_t below(size_t n) {
    return (size_t)(next_random() % n);
}

/* ---- The corpus and the dictionary --------------------------------------------------------- */

typedef struct bytes {
    uint8_t* data;
    size_t size;
} bytes;

typedef struct list {
    bytes* items;
    size_t count, capacity;
} list;

static void die(const char* what, const char* detail) {
    fprintf(stderr, "driver: %s%s%s\n", what, detail != NULL ? ": " : "",
            detail != NULL ? detail : "");
    exit(2);
}

static void* checked_realloc(void* pointer, size_t size) {
    void* grown = realloc(pointer, size > 0 ? size : 1);
    if (grown == NULL) {
        die("out of memory", NULL);
    }
    return grown;
}

static void append(list* l, uint8_t* data, size_t size) {
    if (l->count == l->capacity) {
        l->capacity = l->capacity == 0 ? 64 : 2 * l->capacity;
        l->items = checked_realloc(l->items, l->capacity * sizeof(*l->items));
    }
    l->items[l->count++] = (bytes){data, size};
}

static bytes read_whole_file(const char* path) {
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        die(strerror(errno), path);
    }
    bytes b = {NULL, 0};
    size_t capacity = 4096;
    b.data = checked_realloc(NULL, capacity);
    size_t got;
    while ((got = fread(b.data + b.size, 1, capacity - b.size, file)) > 0) {
        b.size += got;
        if (b.size == capacity) {
            capacity *= 2;
            b.data = checked_realloc(b.data, capacity);
        }
    }
    bool failed = ferror(file) != 0;
    fclose(file);
    if (failed) {
        die("cannot read", path);
    }
    return b;
}

static int compare_names(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

/* The regular files of path (itself, or those in it, in name order) appended to corpus. */
static void read_corpus(const char* path, list* corpus) {
    struct stat info;
    if (stat(path, &info) != 0) {
        die(strerror(errno), path);
    }
    if (!S_ISDIR(info.st_mode)) {
        bytes b = read_whole_file(path);
        append(corpus, b.data, b.size);
        return;
    }
    DIR* dir = opendir(path);
    if (dir == NULL) {
        die(strerror(errno), path);
    }
    char** names = NULL;
    size_t count = 0;
    struct dirent* entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        names = checked_realloc(names, (count + 1) * sizeof(*names));
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        names[count] = checked_realloc(NULL, length);
        snprintf(names[count], length, "%s/%s", path, entry->d_name);
        ++count;
    }
    closedir(dir);
    qsort(names, count, sizeof(*names), compare_names);
    for (size_t i = 0; i < count; ++i) {
        if (stat(names[i], &info) == 0 && S_ISREG(info.st_mode)) {
            bytes b = read_whole_file(names[i]);
            append(corpus, b.data, b.size);
        }
        free(names[i]);
    }
    free(names);
}

static int hex_digit(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                               : -1;
}

/* A libFuzzer (AFL) dictionary: one word a line, `"text"` or `name="text"`, with \\, \" and \xNN
 * escapes; blank lines and # comments skipped. */
static void read_dictionary(const char* path, list* words) {
    bytes file = read_whole_file(path);
    char* text = checked_realloc(file.data, file.size + 1);
    text[file.size] = '\0';
    for (char* line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char* open = strchr(line, '"');
        char* close = strrchr(line, '"');
        if (line[strspn(line, " \t")] == '#' || open == NULL || close == open) {
            continue;
        }
        uint8_t* word = checked_realloc(NULL, (size_t)(close - open));
        size_t size = 0;
        for (char* p = open + 1; p < close; ++p) {
            if (*p == '\\' && p + 1 < close && p[1] == 'x' && p + 3 < close &&
                hex_digit(p[2]) >= 0 && hex_digit(p[3]) >= 0) {
                word[size++] = (uint8_t)(16 * hex_digit(p[2]) + hex_digit(p[3]));
                p += 3;
            } else if (*p == '\\' && p + 1 < close) {
                word[size++] = (uint8_t)p[1]; /* \\ or \" */
                ++p;
            } else {
                word[size++] = (uint8_t)*p;
            }
        }
        if (size > 0) {
            append(words, word, size);
        } else {
            free(word);
        }
    }
    free(text);
}

/* ---- Mutations ------------------------------------------------------------------------------
 * The kinds libFuzzer's own mutator has, without its comparison tracing. Each changes data in
 * place within max_size and returns the new size. */

static list dictionary;

/* Numbers that break parsers and physics: zero, signs, the edges of int and double, subnormals,
 * non-finite spellings. */
static const char* const interesting_text[] = {
    "0",    "-0",   "1",   "-1",  "0.5",  "1e-320", "4.9e-324", "1e308", "-1e308", "1e999",
    "nan",  "inf",  "-inf", "2147483647", "2147483648", "-2147483649", "9007199254740993",
    "18446744073709551615", "1e12", "1e-12", "65", "64", "true", "null", "\"\"", "[]", "{}",
};

static const uint64_t interesting_integers[] = {
    0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000u, 0xffffffffu,
    0x7fffffffffffffffu, 0x8000000000000000u, 0xffffffffffffffffu, 0x7ff0000000000000u,
    0x7ff8000000000000u, 0x0000000000000001u, 0x3ff0000000000000u,
};

/* Room for `count` more bytes at `at`, shifting the rest; false when max_size forbids it. */
static bool make_room(uint8_t* data, size_t* size, size_t max_size, size_t at, size_t count) {
    if (count > max_size - *size) {
        return false;
    }
    memmove(data + at + count, data + at, *size - at);
    *size += count;
    return true;
}

static void erase(uint8_t* data, size_t* size, size_t at, size_t count) {
    memmove(data + at, data + at + count, *size - at - count);
    *size -= count;
}

static void insert(uint8_t* data, size_t* size, size_t max_size, size_t at, const void* what,
                   size_t count) {
    if (make_room(data, size, max_size, at, count)) {
        memcpy(data + at, what, count);
    }
}

static void overwrite(uint8_t* data, size_t size, size_t at, const void* what, size_t count) {
    if (count > size - at) {
        count = size - at;
    }
    memcpy(data + at, what, count);
}

/* A run of digits (with sign, point and exponent) replaced by an interesting number. */
static void replace_number(uint8_t* data, size_t* size, size_t max_size) {
    size_t start = below(*size);
    while (start < *size && !(data[start] >= '0' && data[start] <= '9')) {
        ++start;
    }
    if (start == *size) {
        return;
    }
    size_t end = start;
    while (end < *size && strchr("0123456789.eE+-", data[end]) != NULL) {
        ++end;
    }
    if (start > 0 && data[start - 1] == '-') {
        --start;
    }
    const char* number = interesting_text[below(sizeof(interesting_text) / sizeof(char*))];
    erase(data, size, start, end - start);
    insert(data, size, max_size, start, number, strlen(number));
}

/* A little-endian integer of 1, 2, 4 or 8 bytes set to an interesting value or nudged. */
static void change_integer(uint8_t* data, size_t size) {
    size_t width = (size_t)1 << below(4);
    if (width > size) {
        return;
    }
    size_t at = below(size - width + 1);
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) {
        value |= (uint64_t)data[at + i] << (8 * i);
    }
    switch (below(3)) {
    case 0:
        value = interesting_integers[below(sizeof(interesting_integers) / sizeof(uint64_t))];
        break;
    case 1:
        value += 1 + below(16);
        break;
    default:
        value -= 1 + below(16);
        break;
    }
    for (size_t i = 0; i < width; ++i) {
        data[at + i] = (uint8_t)(value >> (8 * i));
    }
}

static void mutate_once(uint8_t* data, size_t* size, size_t max_size) {
    if (*size == 0) {
        uint8_t byte = (uint8_t)next_random();
        insert(data, size, max_size, 0, &byte, 1);
        return;
    }
    size_t at = below(*size);
    size_t span = 1 + below(*size - at < 32 ? *size - at : 32);
    switch (below(dictionary.count > 0 ? 11 : 9)) {
    case 0: /* flip a bit */
        data[at] ^= (uint8_t)(1u << below(8));
        break;
    case 1: /* a random byte */
        data[at] = (uint8_t)next_random();
        break;
    case 2: /* erase a few bytes */
        erase(data, size, at, span);
        break;
    case 3: { /* insert a few random bytes */
        uint8_t random[4];
        size_t count = 1 + below(sizeof(random));
        for (size_t i = 0; i < count; ++i) {
            random[i] = (uint8_t)next_random();
        }
        insert(data, size, max_size, at, random, count);
        break;
    }
    case 4: /* copy a span over another place */
        memmove(data + below(*size - span + 1), data + at, span);
        break;
    case 5: { /* duplicate a span in place (a repeated array element, a doubled field) */
        uint8_t copy[32];
        memcpy(copy, data + at, span);
        insert(data, size, max_size, at, copy, span);
        break;
    }
    case 6:
        replace_number(data, size, max_size);
        break;
    case 7:
        change_integer(data, *size);
        break;
    case 8: /* swap two bytes */ {
        size_t other = below(*size);
        uint8_t byte = data[at];
        data[at] = data[other];
        data[other] = byte;
        break;
    }
    case 9: { /* insert a dictionary word */
        bytes word = dictionary.items[below(dictionary.count)];
        insert(data, size, max_size, at, word.data, word.size);
        break;
    }
    default: { /* a dictionary word over what is there */
        bytes word = dictionary.items[below(dictionary.count)];
        overwrite(data, *size, at, word.data, word.size);
        break;
    }
    }
}

/* libFuzzer's entry point for mutation, which custom mutators call: one to four mutations. */
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) {
    size_t rounds = 1 + below(4);
    for (size_t i = 0; i < rounds && max_size > 0; ++i) {
        mutate_once(data, &size, max_size);
    }
    return size;
}

/* ---- Saving the input that failed ----------------------------------------------------------
 * On a trap, an abort, a crash or a timeout, a signal handler writes the input with
 * async-signal-safe calls only (open, write, close); a sanitizer's report calls the death
 * callback instead, in ordinary code. The names are made before each input runs. */

static const uint8_t* current_data;
static size_t current_size;
static volatile sig_atomic_t saving;
static char crash_name[4096 + 128]; /* the current folder and the file's name */
static char folder[4096];
static char crash_message[10240]; /* room for the name twice and a program path cut short */

static void write_all(int descriptor, const void* data, size_t size) {
    const char* p = data;
    while (size > 0) {
        ssize_t written = write(descriptor, p, size);
        if (written <= 0) {
            return;
        }
        p += written;
        size -= (size_t)written;
    }
}

static void save_current_input(void) {
    if (saving || current_data == NULL) {
        return;
    }
    saving = 1;
    int descriptor = open(crash_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (descriptor >= 0) {
        write_all(descriptor, current_data, current_size);
        close(descriptor);
    }
    write_all(STDERR_FILENO, crash_message, strlen(crash_message));
}

static void on_fatal_signal(int signal_number) {
    save_current_input();
    raise(signal_number); /* SA_RESETHAND: dies of it as without the handler */
}

static void on_timeout(int signal_number) {
    static const char message[] = "driver: an input ran longer than the timeout\n";
    (void)signal_number;
    write_all(STDERR_FILENO, message, sizeof(message) - 1);
    save_current_input();
    signal(SIGABRT, SIG_DFL);
    abort();
}

static void catch_failures(void) {
    /* Under AddressSanitizer a crash is its business (it reports it, then the death callback
     * saves the input); without it, the crash signals are caught here. */
    int signals[] = {SIGABRT, SIGILL, SIGTRAP,
#ifndef __SANITIZE_ADDRESS__
                     SIGSEGV, SIGBUS,  SIGFPE,
#endif
    };
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); ++i) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_handler = on_fatal_signal;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, NULL);
    }
    signal(SIGALRM, on_timeout);
    if (__sanitizer_set_death_callback != NULL) {
        __sanitizer_set_death_callback(save_current_input);
    }
}

/* ---- Running ---------------------------------------------------------------------------------- */

typedef struct options {
    double seconds; /* of fuzzing after the replay; 0: replay only */
    uint64_t seed;
    const char* dictionary;
    size_t max_len; /* of a mutant, in bytes */
    unsigned timeout; /* seconds per input */
    const char* program; /* argv[0], to say how to replay */
    const char* target;  /* for the names of saved inputs */
} options;

static void run_one(const options* o, const uint8_t* data, size_t size, uint64_t number,
                    const char* origin) {
    snprintf(crash_name, sizeof(crash_name), "%s/crash-%s-seed%llu-%llu", folder, o->target,
             (unsigned long long)o->seed, (unsigned long long)number);
    snprintf(crash_message, sizeof(crash_message),
             "driver: %s failed (seed %llu, input %llu): saved as %s; replay it with: %.300s %s\n",
             origin, (unsigned long long)o->seed, (unsigned long long)number, crash_name,
             o->program, crash_name);
    current_data = data;
    current_size = size;
    alarm(o->timeout);
    LLVMFuzzerTestOneInput(data, size);
    alarm(0);
    current_data = NULL;
}

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* A mutant: a corpus input, sometimes spliced with another, then mutated (through the target's
 * custom mutator when it has one). */
static size_t make_mutant(const options* o, const list* corpus, uint8_t* buffer) {
    bytes base = corpus->items[below(corpus->count)];
    size_t size = base.size < o->max_len ? base.size : o->max_len;
    memcpy(buffer, base.data, size);
    if (below(8) == 0) {
        bytes other = corpus->items[below(corpus->count)];
        size_t cut = size > 0 ? below(size + 1) : 0;
        size_t from = other.size > 0 ? below(other.size) : 0;
        size_t count = other.size - from;
        if (count > o->max_len - cut) {
            count = o->max_len - cut;
        }
        memcpy(buffer + cut, other.data + from, count);
        size = cut + count;
    }
    size_t rounds = 1 + below(4);
    for (size_t i = 0; i < rounds; ++i) {
        size = LLVMFuzzerCustomMutator != NULL
                   ? LLVMFuzzerCustomMutator(buffer, size, o->max_len, (unsigned)next_random())
                   : LLVMFuzzerMutate(buffer, size, o->max_len);
    }
    return size;
}

static bool parse_number(const char* text, double* out) {
    char* end = NULL;
    errno = 0;
    *out = strtod(text, &end);
    return errno == 0 && end != text && *end == '\0' && *out >= 0.0;
}

static void usage(void) {
    fputs("usage: driver [--seconds S] [--seed N] [--dict FILE] [--max-len BYTES] "
          "[--timeout SECONDS] FILE_OR_DIRECTORY...\n",
          stderr);
    exit(2);
}

/* The target's name, for saved inputs: the program's name without a "_driver" ending. */
static const char* target_name(const char* program) {
    static char name[64];
    const char* slash = strrchr(program, '/');
    snprintf(name, sizeof(name), "%s", slash != NULL ? slash + 1 : program);
    char* suffix = strstr(name, "_driver");
    if (suffix != NULL && suffix[7] == '\0') {
        *suffix = '\0';
    }
    return name;
}

int main(int argc, char** argv) {
    options o = {0.0, 1, NULL, 4096, 10, argv[0], target_name(argv[0])};
    list corpus = {NULL, 0, 0};
    int first_path = argc;
    for (int i = 1; i < argc; ++i) {
        double value = 0.0;
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--seconds") == 0 && has_value && parse_number(argv[++i], &value)) {
            o.seconds = value;
        } else if (strcmp(argv[i], "--seed") == 0 && has_value &&
                   parse_number(argv[++i], &value)) {
            o.seed = (uint64_t)value;
        } else if (strcmp(argv[i], "--max-len") == 0 && has_value &&
                   parse_number(argv[++i], &value) && value >= 1.0) {
            o.max_len = (size_t)value;
        } else if (strcmp(argv[i], "--timeout") == 0 && has_value &&
                   parse_number(argv[++i], &value) && value >= 1.0) {
            o.timeout = (unsigned)value;
        } else if (strcmp(argv[i], "--dict") == 0 && has_value) {
            o.dictionary = argv[++i];
        } else if (argv[i][0] == '-') {
            usage();
        } else {
            first_path = first_path < i ? first_path : i;
            read_corpus(argv[i], &corpus);
        }
    }
    if (corpus.count == 0) {
        fputs(first_path < argc ? "driver: no input files\n" : "", stderr);
        usage();
    }
    if (o.dictionary != NULL) {
        read_dictionary(o.dictionary, &dictionary);
    }
    if (getcwd(folder, sizeof(folder)) == NULL) {
        snprintf(folder, sizeof(folder), ".");
    }
    catch_failures();
    if (LLVMFuzzerInitialize != NULL) {
        LLVMFuzzerInitialize(&argc, &argv);
    }
    for (size_t i = 0; i < corpus.count; ++i) {
        run_one(&o, corpus.items[i].data, corpus.items[i].size, i, "a corpus input");
    }
    printf("replayed %zu inputs: every property held\n", corpus.count);
    if (o.seconds > 0.0) {
        random_state = o.seed;
        uint8_t* buffer = checked_realloc(NULL, o.max_len);
        double start = now_seconds();
        uint64_t runs = 0;
        while (now_seconds() - start < o.seconds) {
            size_t size = make_mutant(&o, &corpus, buffer);
            run_one(&o, buffer, size, corpus.count + runs, "a mutant");
            ++runs;
        }
        printf("fuzzed %.0f s from seed %llu: %llu mutants of the %zu inputs (%.0f/s), every "
               "property held\n",
               now_seconds() - start, (unsigned long long)o.seed, (unsigned long long)runs,
               corpus.count, (double)runs / (now_seconds() - start));
        free(buffer);
    }
    for (size_t i = 0; i < corpus.count; ++i) {
        free(corpus.items[i].data);
    }
    free(corpus.items);
    for (size_t i = 0; i < dictionary.count; ++i) {
        free(dictionary.items[i].data);
    }
    free(dictionary.items);
    return 0;
}
