/* Output files replaced whole or not at all (see atomic_file.h). */
#define _XOPEN_SOURCE 700 /* POSIX 2008 with realpath */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Temporaries removed on a signal ------------------------------------------------------
 * A long run killed by Ctrl-C must not leave its hidden temporaries behind. The handler may
 * only use async-signal-safe calls (unlink, sigaction, raise) and reads the list through
 * volatile pointers: a slot is filled before the temporary is used and emptied before its
 * name is freed, so the handler sees either a name that exists or nothing. */

enum { MAX_PENDING = 16 };
static char* volatile pending[MAX_PENDING];

static void remember_temporary(atomic_file* f) {
    for (int i = 0; i < MAX_PENDING; ++i) {
        if (pending[i] == NULL) {
            pending[i] = f->temporary;
            f->slot = i;
            return;
        }
    }
    f->slot = -1; /* more outputs than slots: only a signal would leave this one behind */
}

static void forget_temporary(atomic_file* f) {
    if (f->slot >= 0) {
        pending[f->slot] = NULL;
        f->slot = -1;
    }
}

static void remove_temporaries_and_die(int signal_number) {
    for (int i = 0; i < MAX_PENDING; ++i) {
        char* name = pending[i];
        if (name != NULL) {
            unlink(name);
        }
    }
    /* SA_RESETHAND restored the default action; the signal is blocked until this returns, and
     * then it stops the process as it would have without the handler. */
    raise(signal_number);
}

static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};
#define CLEANUP_SIGNAL_COUNT (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

void atomic_file_clean_up_on_signals(void) {
    const int* signals = cleanup_signals;
    for (size_t i = 0; i < CLEANUP_SIGNAL_COUNT; ++i) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) {
            continue; /* ignored by whoever started us (nohup, a shell's trap): keep it so */
        }
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_handler = remove_temporaries_and_die;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, NULL);
    }
}

/* ---- Paths ---------------------------------------------------------------------------------- */

static char* copy_text(const char* text, size_t length) {
    char* copy = malloc(length + 1);
    if (copy != NULL) {
        memcpy(copy, text, length);
        copy[length] = '\0';
    }
    return copy;
}

/* The folder part of path ("." when it has none) and where its last component starts. */
static char* folder_of(const char* path, const char** base) {
    const char* slash = strrchr(path, '/');
    *base = slash != NULL ? slash + 1 : path;
    if (slash == NULL) {
        return copy_text(".", 1);
    }
    return copy_text(path, slash == path ? 1 : (size_t)(slash - path)); /* "/x": folder "/" */
}

static char* join(const char* folder, const char* name) {
    size_t folder_length = strlen(folder), name_length = strlen(name);
    bool slash = folder_length > 0 && folder[folder_length - 1] != '/';
    char* joined = malloc(folder_length + slash + name_length + 1);
    if (joined != NULL) {
        memcpy(joined, folder, folder_length);
        joined[folder_length] = '/';
        memcpy(joined + folder_length + slash, name, name_length + 1);
    }
    return joined;
}

/* An absolute path without "." and ".." components or repeated slashes, by its text alone: for
 * a path whose folder does not exist, which no link can be in the way of. */
static char* lexically_normal(const char* path) {
    char* absolute = NULL;
    if (path[0] == '/') {
        absolute = copy_text(path, strlen(path));
    } else {
        char* here = getcwd(NULL, 0);
        absolute = here != NULL ? join(here, path) : NULL;
        free(here);
    }
    if (absolute == NULL) {
        return NULL;
    }
    size_t out = 0; /* absolute[0, out) is the normal form so far, "" for "/" */
    for (size_t in = 0; absolute[in] != '\0';) {
        while (absolute[in] == '/') {
            ++in;
        }
        size_t length = strcspn(absolute + in, "/");
        if (length == 1 && absolute[in] == '.') {
            /* nothing */
        } else if (length == 2 && absolute[in] == '.' && absolute[in + 1] == '.') {
            while (out > 0 && absolute[--out] != '/') {
            }
        } else if (length > 0) {
            absolute[out++] = '/';
            memmove(absolute + out, absolute + in, length);
            out += length;
        }
        in += length;
    }
    if (out == 0) {
        absolute[out++] = '/';
    }
    absolute[out] = '\0';
    return absolute;
}

/* The path of the file a name refers to: realpath() when it exists; else its folder's real path
 * and the name in it; else (no such folder either) the path made absolute and normal. */
static char* canonical_path(const char* path) {
    char* real = realpath(path, NULL);
    if (real != NULL) {
        return real;
    }
    const char* base = NULL;
    char* folder = folder_of(path, &base);
    char* real_folder = folder != NULL ? realpath(folder, NULL) : NULL;
    bool plain_name = strcmp(base, ".") != 0 && strcmp(base, "..") != 0 && base[0] != '\0';
    char* result = real_folder != NULL && plain_name ? join(real_folder, base)
                                                     : lexically_normal(path);
    free(folder);
    free(real_folder);
    return result;
}

bool atomic_file_same_target(const char* a, const char* b) {
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0) {
        return false;
    }
    struct stat a_info, b_info;
    bool a_exists = stat(a, &a_info) == 0;
    int a_errno = errno;
    bool b_exists = stat(b, &b_info) == 0;
    int b_errno = errno;
    if (a_exists && b_exists) {
        return a_info.st_dev == b_info.st_dev && a_info.st_ino == b_info.st_ino &&
               !S_ISCHR(a_info.st_mode);
    }
    if ((a_exists && b_errno == ENOENT) || (b_exists && a_errno == ENOENT)) {
        return false; /* one name leads to a file and the other to none */
    }
    char* a_path = canonical_path(a);
    char* b_path = canonical_path(b);
    bool same = a_path != NULL && b_path != NULL && strcmp(a_path, b_path) == 0;
    free(a_path);
    free(b_path);
    return same;
}

/* ---- Opening -------------------------------------------------------------------------------- */

static bool fail(atomic_file* f, atomic_file_stage stage, int error) {
    if (f->error == 0) {
        f->error = error != 0 ? error : EIO;
        f->stage = stage;
    }
    return false;
}

/* Remove the temporary and free what f owns: after a failure, or when giving up. What the
 * report needs (path, kind, existed, error, stage) stays. */
static void release(atomic_file* f) {
    if (f->temporary != NULL) {
        forget_temporary(f);
        unlink(f->temporary);
        free(f->temporary);
        f->temporary = NULL;
    }
    free(f->target);
    f->target = NULL;
}

static mode_t creation_mode(void) {
    mode_t mask = umask(0); /* the only way to read the umask; single-threaded, see the header */
    umask(mask);
    return 0666 & ~mask;
}

/* The temporary's name: hidden (a leading dot, so that globs such as *.json skip it while it is
 * written), in the target's folder (rename does not cross file systems), saying whose it is,
 * and short enough for any file system whatever the target's name. */
static char* temporary_template(const char* target) {
    const char* base = NULL;
    char* folder = folder_of(target, &base);
    if (folder == NULL) {
        return NULL;
    }
    char name[96];
    snprintf(name, sizeof(name), ".%.64s.tmp-XXXXXX", base);
    char* joined = join(folder, name);
    free(folder);
    return joined;
}

/* The temporary for a regular file or a new name, with the mode (and owner) the file will
 * have. */
static bool open_temporary(atomic_file* f, const struct stat* old) {
    f->temporary = temporary_template(f->target);
    if (f->temporary == NULL) {
        return fail(f, ATOMIC_FILE_OPENING, ENOMEM);
    }
    /* The temporary exists from mkstemp on, but the handler knows it only once remembered: a
     * signal in between would leave it behind, so the cleanup signals wait until then. */
    sigset_t cleanup, previous;
    sigemptyset(&cleanup);
    for (size_t i = 0; i < CLEANUP_SIGNAL_COUNT; ++i) {
        sigaddset(&cleanup, cleanup_signals[i]);
    }
    sigprocmask(SIG_BLOCK, &cleanup, &previous);
    int descriptor = mkstemp(f->temporary);
    int mkstemp_error = errno;
    if (descriptor >= 0) {
        remember_temporary(f);
    }
    sigprocmask(SIG_SETMASK, &previous, NULL);
    if (descriptor < 0) {
        free(f->temporary);
        f->temporary = NULL;
        return fail(f, ATOMIC_FILE_OPENING, mkstemp_error);
    }
    if (f->existed && (old->st_uid != geteuid() || old->st_gid != getegid())) {
        /* Keeping the owner is possible for root only, and keeping the group only for a member
         * of it; when neither is allowed the new file is the writer's, as any rewrite by rename
         * makes it, which is no reason to refuse the write. */
        bool kept = fchown(descriptor, old->st_uid, old->st_gid) == 0 ||
                    fchown(descriptor, (uid_t)-1, old->st_gid) == 0;
        (void)kept;
    }
    /* After fchown, which may clear permission bits. */
    mode_t mode = f->existed ? (old->st_mode & 0777) : creation_mode();
    if (fchmod(descriptor, mode) != 0 || (f->file = fdopen(descriptor, "w")) == NULL) {
        int error = errno;
        close(descriptor);
        release(f);
        return fail(f, ATOMIC_FILE_OPENING, error);
    }
    return true;
}

static bool open_in_place(atomic_file* f) {
    f->kind = ATOMIC_FILE_IN_PLACE;
    f->file = fopen(f->path, "w");
    return f->file != NULL || fail(f, ATOMIC_FILE_OPENING, errno);
}

bool atomic_file_open(atomic_file* f, const char* path) {
    memset(f, 0, sizeof(*f));
    f->path = path;
    f->slot = -1;
    if (strcmp(path, "-") == 0) {
        f->kind = ATOMIC_FILE_STDOUT;
        f->file = stdout;
        return true;
    }
    f->kind = ATOMIC_FILE_REPLACED;
    struct stat info;
    memset(&info, 0, sizeof(info));
    f->existed = stat(path, &info) == 0;
    if (!f->existed) {
        struct stat link;
        if (errno != ENOENT) {
            return fail(f, ATOMIC_FILE_OPENING, errno); /* a file in the folder path, a loop */
        }
        if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode)) {
            return open_in_place(f); /* a link to nothing yet: fopen makes what it points to */
        }
    } else if (S_ISDIR(info.st_mode)) {
        return fail(f, ATOMIC_FILE_OPENING, EISDIR); /* now, not after the whole run */
    } else if (!S_ISREG(info.st_mode)) {
        return open_in_place(f);
    } else if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0) {
        return fail(f, ATOMIC_FILE_OPENING, errno); /* a read-only file is not replaced */
    }
    f->target = f->existed ? realpath(path, NULL) : copy_text(path, strlen(path));
    if (f->target == NULL) {
        return fail(f, ATOMIC_FILE_OPENING, errno);
    }
    if (!open_temporary(f, &info)) {
        release(f);
        return false;
    }
    return true;
}

/* ---- Finishing ------------------------------------------------------------------------------ */

bool atomic_file_failed(atomic_file* f) {
    if (f->file != NULL && ferror(f->file) && f->error == 0) {
        fail(f, ATOMIC_FILE_WRITING, errno);
    }
    return f->error != 0;
}

/* Sync the folder so that the rename itself survives a power cut. Best effort: the new file is
 * whole and in place already, and some file systems cannot sync a folder (EINVAL); a failure
 * here cannot be undone by putting the old file back, which is gone. */
static void sync_folder(const char* target) {
    const char* base = NULL;
    char* folder = folder_of(target, &base);
    int descriptor = folder != NULL ? open(folder, O_RDONLY | O_DIRECTORY) : -1;
    if (descriptor >= 0) {
        if (fsync(descriptor) != 0) {
            errno = 0;
        }
        close(descriptor);
    }
    free(folder);
}

bool atomic_file_close(atomic_file* f) {
    if (f->file == NULL) {
        return f->error == 0;
    }
    atomic_file_failed(f);
    errno = 0;
    bool ok = fflush(f->file) == 0 && ferror(f->file) == 0;
    if (!ok) {
        fail(f, ATOMIC_FILE_WRITING, errno);
    }
    if (f->kind == ATOMIC_FILE_STDOUT) {
        f->file = NULL;
        return f->error == 0;
    }
    /* fsync: the data is on the disk before the name points to it, or a crash right after the
     * rename could leave an empty file where the old one was. */
    if (ok && f->kind == ATOMIC_FILE_REPLACED && fsync(fileno(f->file)) != 0) {
        fail(f, ATOMIC_FILE_WRITING, errno);
    }
    if (fclose(f->file) != 0) {
        fail(f, ATOMIC_FILE_WRITING, errno);
    }
    f->file = NULL;
    if (f->error != 0) {
        release(f);
    }
    return f->error == 0;
}

bool atomic_file_replace(atomic_file* f) {
    if (f->error != 0 || f->file != NULL) {
        return false; /* not closed, or it failed: nothing to put in place */
    }
    if (f->kind != ATOMIC_FILE_REPLACED) {
        return true;
    }
    if (rename(f->temporary, f->target) != 0) {
        fail(f, ATOMIC_FILE_RENAMING, errno);
        release(f);
        return false;
    }
    forget_temporary(f);
    free(f->temporary);
    f->temporary = NULL;
    sync_folder(f->target);
    release(f);
    return true;
}

bool atomic_file_commit(atomic_file* f) {
    return atomic_file_close(f) && atomic_file_replace(f);
}

void atomic_file_discard(atomic_file* f) {
    if (f->file != NULL && f->kind != ATOMIC_FILE_STDOUT) {
        fclose(f->file); /* what it held is being thrown away */
    }
    f->file = NULL;
    release(f);
}

void atomic_file_report(const atomic_file* f, const char* program) {
    const char* prefix = program != NULL ? program : "";
    const char* colon = program != NULL ? ": " : "";
    const char* reason = strerror(f->error != 0 ? f->error : EIO);
    const char* kept = "";
    if (f->kind == ATOMIC_FILE_REPLACED) {
        kept = f->existed ? " (the previous file is kept)" : " (no file was made)";
    }
    switch (f->stage) {
    case ATOMIC_FILE_OPENING:
        fprintf(stderr, "%s%scannot write '%s': %s\n", prefix, colon, f->path, reason);
        break;
    case ATOMIC_FILE_WRITING:
        fprintf(stderr, "%s%scould not write all of '%s': %s%s\n", prefix, colon, f->path, reason,
                kept);
        break;
    case ATOMIC_FILE_RENAMING:
        fprintf(stderr, "%s%scould not put the new '%s' in place: %s%s\n", prefix, colon, f->path,
                reason, kept);
        break;
    }
}
