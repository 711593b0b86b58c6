/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/xalloc.h"

int read_fd_bounded(int fd, size_t max, struct strbuf *out)
{
	size_t start = out->len;

	for (;;) {
		ssize_t n;
		size_t room;

		strbuf_grow(out, 4096);
		room = out->alloc - out->len - 1;
		n = read(fd, out->buf + out->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!n)
			break;
		strbuf_setlen(out, out->len + (size_t)n);
		if (out->len - start > max) {
			strbuf_setlen(out, start);
			errno = EFBIG;
			return -1;
		}
	}
	return 0;
}

/*
 * The shim's hot path ends in execve, which closes every O_CLOEXEC fd: a
 * close(2) of each small file it read is a system call for nothing
 * (bench/shim-bench.sh counts them). Off by default; a bounded number.
 */
static unsigned fds_kept, fds_keep_max;

void fileio_keep_fds_to_exec(unsigned max)
{
	fds_keep_max = max;
}

void fd_done(int fd)
{
	int errsv = errno;

	if (fd < 0)
		return;
	if (fds_kept < fds_keep_max)
		fds_kept++;
	else
		close(fd);
	errno = errsv;
}

/* One read of at most max + 1 bytes; `regular`: a read that gave nothing
 * is told from an empty regular file by fstat, the one case that needs it
 * (a directory's EISDIR, a FIFO with no writer, /dev/null, a tty). */
static int read_small(const char *path, size_t max, bool regular,
		      struct strbuf *out)
{
	struct stat st;
	ssize_t n;
	int fd, errsv;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	strbuf_grow(out, max + 1);
	do
		n = read(fd, out->buf + out->len, max + 1);
	while (n < 0 && errno == EINTR);
	errsv = errno;
	if (regular && n <= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		n = -1;
		errsv = EINVAL;
	}
	fd_done(fd);
	if (n < 0) {
		errno = errsv;
		return -1;
	}
	if ((size_t)n > max) {
		errno = EFBIG;
		return -1;
	}
	strbuf_setlen(out, out->len + (size_t)n);
	return 0;
}

int read_small_file(const char *path, size_t max, struct strbuf *out)
{
	return read_small(path, max, false, out);
}

int read_small_regular(const char *path, size_t max, struct strbuf *out)
{
	return read_small(path, max, true, out);
}

int read_file_bounded(const char *path, size_t max, unsigned flags,
		      struct strbuf *out)
{
	cleanup_fd int fd = -1;
	struct stat st;

	/* O_NONBLOCK: a FIFO planted where we read must not hang us (it
	 * is then no regular file); for a regular file it changes nothing */
	fd = open(path,
		  O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		return -1;
	if ((flags & RF_REGULAR) && !S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	if ((flags & RF_OWNER_ONLY_WRITE) && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		errno = EPERM;
		return -1;
	}
	if ((flags & RF_OWNED_BY_US) && st.st_uid != geteuid()) {
		errno = EPERM;
		return -1;
	}
	if (S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
		errno = EFBIG;
		return -1;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/* the whole file in one read when it is as long as fstat said
		 * (the hot path reads three small files); else the loop */
		size_t want = (size_t)st.st_size;
		ssize_t n;

		strbuf_grow(out, want + 1);
		n = read(fd, out->buf + out->len, want + 1);
		if (n == (ssize_t)want) {
			strbuf_setlen(out, out->len + want);
			return 0;
		}
		/* it changed under us: start over the careful way */
		if (lseek(fd, 0, SEEK_SET) < 0)
			return -1;
	}
	return read_fd_bounded(fd, max, out);
}

int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

bool file_has_content(const char *path, const void *data, size_t len,
		      mode_t mode)
{
	struct strbuf cur = STRBUF_INIT;
	struct stat st;
	bool same = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return false;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (st.st_mode & 07777) == mode && st.st_uid == geteuid() &&
	    (size_t)st.st_size == len && !read_fd_bounded(fd, len, &cur))
		same = cur.len == len && !memcmp(cur.buf, data, len);
	close(fd);
	strbuf_release(&cur);
	return same;
}

int write_file_atomic(const char *path, const void *data, size_t len,
		      mode_t mode)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd, errsv;

	strbuf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  mode);
	if (fd < 0 && errno == EEXIST) {
		unlink(tmp.buf);
		fd = open(tmp.buf,
			  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			  mode);
	}
	if (fd < 0)
		goto fail;
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		errsv = errno;
		close(fd);
		errno = errsv;
		goto fail_unlink;
	}
	if (close(fd) < 0)
		goto fail_unlink;
	if (rename(tmp.buf, path) < 0)
		goto fail_unlink;
	strbuf_release(&tmp);
	return 0;
fail_unlink:
	errsv = errno;
	unlink(tmp.buf);
	errno = errsv;
fail:
	errsv = errno;
	strbuf_release(&tmp);
	errno = errsv;
	return -1;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *copy = xstrdup(path);
	char *p = copy;
	int ret = 0;

	if (*p == '/')
		p++;
	for (;; p++) {
		char c = *p;
		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (*copy && mkdir(copy, mode) < 0 && errno != EEXIST) {
			ret = -1;
			break;
		}
		if (c == '\0')
			break;
		*p = c;
	}
	if (!ret && !is_dir(path)) {
		errno = ENOTDIR;
		ret = -1;
	}
	{
		int errsv = errno;
		free(copy);
		errno = errsv;
	}
	return ret;
}

bool path_exists(const char *path)
{
	struct stat st;
	return !lstat(path, &st);
}

bool is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}
