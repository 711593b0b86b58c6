/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "git/snapshot-tmp.h"

/* This process's pid namespace (the inode of /proc/self/ns/pid), 0 when
 * unknown: pids only mean something within one namespace. */
static unsigned long pid_namespace(void)
{
	static unsigned long ns;
	static bool done;
	struct stat st;

	if (!done) {
		ns = stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
		done = true;
	}
	return ns;
}

void snapshot_tmp_name(struct strbuf *out, const char *dir)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	strbuf_reset(out);
	strbuf_addf(out, "%s/" SNAPSHOT_TMP_PREFIX "%lu-%ld-%ld", dir,
		    pid_namespace(), (long)getpid(), (long)ts.tv_nsec);
}

static bool number(const char **p, char stop, unsigned long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno || *end != stop)
		return false;
	*p = end + (stop ? 1 : 0);
	return true;
}

/*
 * The pid of `<prefix><pidns>-<pid>-<ns>[.lock]` made in our pid namespace,
 * or 0 when the name is not one (or is another namespace's).
 */
static pid_t stale_candidate(const char *name, unsigned long ourns)
{
	const char *p = name + strlen(SNAPSHOT_TMP_PREFIX);
	unsigned long pidns, pid, ns;
	size_t len;

	if (strncmp(name, SNAPSHOT_TMP_PREFIX, strlen(SNAPSHOT_TMP_PREFIX)) ||
	    !number(&p, '-', &pidns) || pidns != ourns ||
	    !number(&p, '-', &pid) || !pid || pid > 0x7fffffffUL)
		return 0;
	len = strlen(p);
	if (len > 5 && !strcmp(p + len - 5, ".lock")) {
		char digits[32];
		const char *q = digits;
		if (len - 5 >= sizeof(digits))
			return 0;
		memcpy(digits, p, len - 5);
		digits[len - 5] = '\0';
		if (!number(&q, '\0', &ns))
			return 0;
	} else if (!number(&p, '\0', &ns)) {
		return 0;
	}
	return (pid_t)pid;
}

unsigned snapshot_tmp_sweep(const char *dir)
{
	unsigned long ourns = pid_namespace();
	DIR *d;
	struct dirent *e;
	unsigned n = 0;

	if (!ourns || !(d = opendir(dir)))
		return 0;
	while ((e = readdir(d))) {
		pid_t pid = stale_candidate(e->d_name, ourns);
		struct stat st;

		if (!pid || pid == getpid() ||
		    (kill(pid, 0) == 0 || errno != ESRCH))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (!unlinkat(dirfd(d), e->d_name, 0))
			n++;
	}
	closedir(d);
	return n;
}
