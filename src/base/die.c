/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/die.h"
#include "base/inert.h"
#include "base/strbuf.h"

void ag_cleanup_freep(void *p)
{
	void **pp = p;
	free(*pp);
}

void ag_cleanup_fdp(int *fdp)
{
	if (*fdp >= 0) {
		int errsv = errno;
		close(*fdp);
		errno = errsv;
	}
}

/*
 * One message, inert (base/inert.h): every argument may hold a name an
 * agent chose, so each is printed with its control characters made
 * visible. A newline an argument carries (git's stderr, a file name) is
 * kept readable but can never start a line of its own: trailing ones are
 * dropped and each other one continues the message, indented.
 */
static AG_PRINTF(2, 0) void vreport(const char *prefix, const char *fmt, va_list ap,
		    int errnum)
{
	/* out of memory while reporting: xalloc's own message, plainly */
	static _Thread_local bool reporting;
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;

	if (reporting) {
		char plain[256];

		if (vsnprintf(plain, sizeof(plain), fmt, ap) < 0)
			plain[0] = '\0';
		fprintf(stderr, "agentic-git: %s%s\n", prefix, plain);
		return;
	}
	reporting = true;
	strbuf_vaddf_inert_flags(&msg, INERT_KEEP_NL | INERT_KEEP_TAB, fmt, ap);
	while (msg.len && msg.buf[msg.len - 1] == '\n')
		strbuf_setlen(&msg, msg.len - 1);
	strbuf_addf(&out, "agentic-git: %s", prefix);
	for (const char *p = msg.buf, *nl; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		strbuf_add(&out, p, (size_t)(nl - p));
		if (!*nl)
			break;
		strbuf_addstr(&out, "\n    ");
	}
	if (errnum)
		strbuf_addf(&out, ": %s", strerror(errnum));
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stderr);
	strbuf_release(&msg);
	strbuf_release(&out);
	reporting = false;
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	exit(AG_EXIT_FATAL);
}

void die_code(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	exit(code);
}

void die_errno(const char *fmt, ...)
{
	int errsv = errno;
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, errsv);
	va_end(ap);
	exit(AG_EXIT_FATAL);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int errsv = errno;
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, errsv);
	va_end(ap);
	errno = errsv;
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, 0);
	va_end(ap);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "agentic-git: BUG %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
