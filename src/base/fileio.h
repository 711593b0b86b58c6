/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FILEIO_H
#define AG_FILEIO_H

/**
 * Bounded, TOCTOU-free file I/O.
 *
 * Files are opened with O_CLOEXEC|O_NOFOLLOW and every check runs on the fd
 * (signify xopen, doas parseconfig). Functions return 0 on success and -1
 * with errno set on failure; they print nothing.
 */
#include "base/common.h"
#include <sys/types.h>
#include "base/strbuf.h"

enum read_flags {
	RF_REGULAR = 1 << 0,	   /* refuse anything but a regular file */
	RF_OWNER_ONLY_WRITE = 1 << 1, /* refuse group/other-writable (EPERM) */
	RF_OWNED_BY_US = 1 << 2,   /* refuse files owned by another uid (EPERM) */
};

/*
 * Reads at most `max` bytes of `path` into `out` (appended). A file larger
 * than `max` fails with EFBIG. ENOENT is returned as-is so callers can tell
 * "missing" from "bad".
 */
int read_file_bounded(const char *path, size_t max, unsigned flags,
		      struct strbuf *out);
/*
 * For a small file the caller parses and validates anyway (git's own .git,
 * HEAD and commondir files, on the shim's hot path): open (O_NONBLOCK too,
 * so a FIFO cannot hang it), one read of at most `max` + 1 bytes, close;
 * no fstat. Something that is not a regular file gives what read gives
 * (nothing from a FIFO, EISDIR from a directory), which must fail the
 * caller's parse. Larger than `max`: EFBIG.
 */
int read_small_file(const char *path, size_t max, struct strbuf *out);
/*
 * read_small_file() that refuses anything but a regular file (EINVAL), as
 * RF_REGULAR does, with no fstat when the read gave bytes: only a regular
 * file, a FIFO someone writes to or a device gives bytes to one read, and
 * a writer who can put a FIFO or a device at `path` can put a file there.
 * Checks of owner or mode need read_file_bounded(). One read: a file that
 * grows meanwhile is cut where it was (a signature over it fails).
 */
int read_small_regular(const char *path, size_t max, struct strbuf *out);
/*
 * Where the shim's hot path would close an O_CLOEXEC fd it read from: up
 * to `max` of them are left open for execve to close (the shim calls
 * fileio_keep_fds_to_exec(); nothing else does). fd_done() keeps errno.
 */
void fileio_keep_fds_to_exec(unsigned max);
void fd_done(int fd);
/* Same, on an already-open fd (not closed). */
int read_fd_bounded(int fd, size_t max, struct strbuf *out);

/* Writes data fully to fd, retrying on EINTR and short writes. */
int write_all(int fd, const void *data, size_t len);

/*
 * True when `path` is a regular file of ours (not a symlink) with exactly
 * `mode` and these bytes: rewriting it would change nothing, and on a
 * full disk would fail.
 */
bool file_has_content(const char *path, const void *data, size_t len,
		      mode_t mode);

/*
 * Writes `len` bytes to `path` atomically: a temp file in the same
 * directory, fsync, rename. The file gets `mode`.
 */
int write_file_atomic(const char *path, const void *data, size_t len,
		      mode_t mode);

/* mkdir -p with `mode` for created directories. */
int mkdir_p(const char *path, mode_t mode);

/* True when `path` exists (lstat). */
bool path_exists(const char *path);
bool is_dir(const char *path);

#endif
