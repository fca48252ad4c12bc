/* Output files that are replaced whole or not at all (docs/cli.md, "Output files").
 *
 * A program that writes its result over the file of an earlier run must not lose that file
 * when the write fails halfway (a full disk, a quota, a file size limit, a signal): the old
 * contents were the user's last good result. So a file is written to a temporary in the same
 * folder, flushed and synced to the disk, and only then renamed over the target. rename()
 * within one file system swaps the name in one step, so the target is at every moment either
 * the old file whole or the new one whole. On any failure the temporary is removed and the
 * target is left as it was.
 *
 * What is replaced this way: a regular file, or a name that does not exist yet. Other targets
 * are written in place, as fopen would, because there is no file to replace: "-" (stdout,
 * already open), a character device, a FIFO or a socket (/dev/null, a terminal, the pipe of
 * the shell's >(...)), and a symbolic link that points to nothing yet. A symbolic link to a
 * regular file is followed: the file it points to is replaced and the link stays. A file
 * that another name links to (a hard link) is replaced under this name only.
 *
 * The new file gets the old one's permission bits (rwx for user, group and others) and, where
 * the process may set them, its owner and group; a new name gets 0666 less the umask, as
 * fopen gives it. A file the process may not write (by its mode, or on a read-only file
 * system) is refused as fopen would refuse it, although its folder would allow a rename; and a
 * file in a folder the process may not write is refused although fopen would take it, since
 * the temporary cannot be made.
 *
 * Use:
 *     atomic_file out;
 *     if (!atomic_file_open(&out, path)) { atomic_file_report(&out, "carom"); ... }
 *     ... write to out.file ...
 *     if (!atomic_file_commit(&out)) { atomic_file_report(&out, "carom"); ... }
 * atomic_file_discard() gives up instead: the target stays as it was. A program writing several
 * outputs that belong together closes them all first (atomic_file_close), and renames them
 * (atomic_file_replace) only when every one was written, so that a failure changes none.
 *
 * Not thread-safe: one thread opens and closes outputs. */
#ifndef CAROM_TOOLS_ATOMIC_FILE_H
#define CAROM_TOOLS_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

typedef enum atomic_file_kind {
    ATOMIC_FILE_STDOUT,   /* "-": stdout, flushed at the end and never closed */
    ATOMIC_FILE_IN_PLACE, /* a device, FIFO, socket or dangling link, opened and written as is */
    ATOMIC_FILE_REPLACED, /* a regular file or a new name: a temporary renamed over it */
} atomic_file_kind;

/* What failed, for the message. */
typedef enum atomic_file_stage {
    ATOMIC_FILE_OPENING,   /* the target or its temporary could not be opened */
    ATOMIC_FILE_WRITING,   /* a write, the flush, the sync or the close failed */
    ATOMIC_FILE_RENAMING,  /* the finished temporary could not be renamed over the target */
} atomic_file_stage;

typedef struct atomic_file {
    FILE* file;       /* write here; NULL once closed or discarded */
    const char* path; /* the target as the caller named it; borrowed, must outlive this */
    atomic_file_kind kind;
    char* target;    /* REPLACED: the file renamed over (path, links followed); owned */
    char* temporary; /* REPLACED: the temporary, while it exists; owned */
    bool existed;    /* REPLACED: there was a file, which a failure leaves as it was */
    int error;       /* errno of the first failure; 0 while all is well */
    atomic_file_stage stage; /* where that failure happened */
    int slot;                /* in the list of temporaries removed on a signal, or -1 */
} atomic_file;

/* Open path for writing ("-": stdout). A directory at path, a missing folder, a folder or file
 * the process may not write: false, with f->error set (report it with atomic_file_report); f
 * then holds nothing to close. */
bool atomic_file_open(atomic_file* f, const char* path);

/* Whether a write to f->file has failed so far (the stream's error indicator). The first time
 * it has, errno is kept as the reason, so call it right after a batch of writes: stdio keeps no
 * reason of its own, and a later call may change errno. Checking after each batch also lets a
 * long writer stop early; atomic_file_close checks again in any case. */
bool atomic_file_failed(atomic_file* f);

/* Flush, sync to the disk and close (stdout is flushed only). False when anything written was
 * lost: the temporary is removed, the target untouched, f->error set. */
bool atomic_file_close(atomic_file* f);

/* After a successful atomic_file_close: rename the temporary over the target (nothing to do for
 * stdout and in-place targets). False, with the temporary removed and the target untouched,
 * when the rename fails. */
bool atomic_file_replace(atomic_file* f);

/* atomic_file_close, then atomic_file_replace. */
bool atomic_file_commit(atomic_file* f);

/* Give up: close without replacing and remove the temporary; the target stays as it was. What
 * went to stdout or an in-place target stays written. Safe on a file already closed,
 * replaced, discarded or never opened, and frees what f owns. */
void atomic_file_discard(atomic_file* f);

/* One line on stderr saying what failed, on which path and why:
 *   PROGRAM: cannot write 'PATH': REASON
 *   PROGRAM: could not write all of 'PATH': REASON (the previous file is kept)
 * PROGRAM may be NULL (no prefix). */
void atomic_file_report(const atomic_file* f, const char* program);

/* Whether two output paths name the same file, which two outputs must not share: the same
 * device and inode when both exist, else the same absolute path once symbolic links in it are
 * followed and "." and ".." removed. "-" (stdout) is never the same as a path here, and a
 * character device (/dev/null) is never shared: writing it twice destroys nothing. */
bool atomic_file_same_target(const char* a, const char* b);

/* Remove the temporaries still open when the process is stopped by SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGPIPE or SIGXFSZ (a file size limit), then die of the signal as before. Signals
 * that are ignored stay ignored. Call once, early, in a program that writes through
 * atomic_file. */
void atomic_file_clean_up_on_signals(void);

#endif
