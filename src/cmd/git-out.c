/* SPDX-License-Identifier: Apache-2.0 */
/*
 * git's output to a person, inert (git-out.h).
 *
 * Invariants:
 *  1. Not one byte git wrote reaches stdout but through
 *     strbuf_add_inert_chunk()/strbuf_add_inert_mem(): no control but
 *     newline and tab, no bidi control, valid UTF-8.
 *  2. A UTF-8 sequence cut by a read boundary is escaped as the whole
 *     sequence would be (the chunk form keeps it for the next read).
 *  3. git never blocks on us: its stdout is a memory file, read after it
 *     exits, so a large stderr cannot deadlock against our reading.
 */
#include "base/common.h"
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/inert.h"
#include "cmd/git-out.h"
#include "git/gitcmd.h"

#define GIT_OUT_FLAGS (INERT_KEEP_NL | INERT_KEEP_TAB | INERT_KEEP_BACKSLASH)

/* Copies fd from its start to stdout, inert. 0, or -1 (errno set). */
static int copy_inert(int fd)
{
	struct strbuf carry = STRBUF_INIT, out = STRBUF_INIT;
	char buf[65536];
	int ret = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		size_t used;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -1 : 0;
			break;
		}
		strbuf_add(&carry, buf, (size_t)n);
		used = strbuf_add_inert_chunk(&out, carry.buf, carry.len,
					      GIT_OUT_FLAGS);
		memmove(carry.buf, carry.buf + used, carry.len - used);
		strbuf_setlen(&carry, carry.len - used);
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_reset(&out);
	}
	strbuf_add_inert_mem(&out, carry.buf, carry.len, GIT_OUT_FLAGS);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&carry);
	strbuf_release(&out);
	return ret;
}

int git_run_inert(struct child *c, struct strbuf *err)
{
	int fd = memfd_create("agentic-git-out", MFD_CLOEXEC);
	int st;

	if (fd < 0)
		return -1;
	fflush(stdout);
	c->out_fd = fd;
	st = gitcmd_run(c, NULL, err);
	if (st >= 0 && copy_inert(fd) < 0)
		st = -1;
	close(fd);
	return st;
}
