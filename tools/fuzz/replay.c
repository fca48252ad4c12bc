/* Replays files through a libFuzzer target without libFuzzer: the snapshot corpus becomes a
 * regression test that every build runs (meson test snapshot_corpus, also under the sanitizers
 * in CI), so an input that once broke the loader keeps being checked after the fix.
 *
 *   replay_snapshot_corpus FILE_OR_DIRECTORY...
 *
 * Each file goes through LLVMFuzzerTestOneInput once, in sorted order; the target traps on any
 * broken property, which fails the test. Prints how many inputs were replayed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

/* The target's custom mutator calls libFuzzer's; replaying never mutates. */
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) {
    (void)data;
    (void)max_size;
    return size;
}

static int replay_file(const char* path) {
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t* data = malloc(capacity);
    size_t got;
    while (data != NULL && (got = fread(data + size, 1, capacity - size, file)) > 0) {
        size += got;
        if (size == capacity) {
            capacity *= 2;
            uint8_t* grown = realloc(data, capacity);
            if (grown == NULL) {
                free(data);
                data = NULL;
            }
            data = grown;
        }
    }
    fclose(file);
    if (data == NULL) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 1;
}

static int compare_names(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Replay every regular file of a directory, in name order. Returns the count, or -1. */
static int replay_directory(const char* path) {
    DIR* dir = opendir(path);
    if (dir == NULL) {
        fprintf(stderr, "replay: cannot open directory %s\n", path);
        return -1;
    }
    char** names = NULL;
    size_t count = 0, capacity = 0;
    struct dirent* entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        if (count == capacity) {
            capacity = capacity == 0 ? 64 : 2 * capacity;
            char** grown = realloc(names, capacity * sizeof(*names));
            if (grown == NULL) {
                break;
            }
            names = grown;
        }
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        names[count] = malloc(length);
        if (names[count] != NULL) {
            snprintf(names[count], length, "%s/%s", path, entry->d_name);
            ++count;
        }
    }
    closedir(dir);
    qsort(names, count, sizeof(*names), compare_names);
    int replayed = 0;
    for (size_t i = 0; i < count; ++i) {
        struct stat info;
        if (replayed >= 0 && stat(names[i], &info) == 0 && S_ISREG(info.st_mode)) {
            replayed = replay_file(names[i]) < 0 ? -1 : replayed + 1;
        }
        free(names[i]);
    }
    free(names);
    return replayed;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat info;
        int replayed = stat(argv[i], &info) == 0 && S_ISDIR(info.st_mode)
                           ? replay_directory(argv[i])
                           : replay_file(argv[i]);
        if (replayed < 0) {
            return 1;
        }
        total += replayed;
    }
    printf("replayed %d inputs: every property held\n", total);
    return total > 0 ? 0 : 1;
}
