/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/die.h"

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

static AG_PRINTF(2, 0) void vreport(const char *prefix, const char *fmt, va_list ap,
		    int errnum)
{
	char msg[4096];
	int n;

	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		msg[0] = '\0';
	if (errnum)
		fprintf(stderr, "agentic-git: %s%s: %s\n", prefix, msg,
			strerror(errnum));
	else
		fprintf(stderr, "agentic-git: %s%s\n", prefix, msg);
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
