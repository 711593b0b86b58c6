/* SPDX-License-Identifier: Apache-2.0 */
/* The processes /proc lists and the tree below one of them; proctree.h. */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/proctree.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* "<pid> (<comm>) <state> <ppid> <pgrp> …": the comm may hold anything,
 * ')' included, so the fields are read after its last ')'. */
static int parse_stat(const char *buf, pid_t pid, struct proc_stat *st)
{
	const char *p = strrchr(buf, ')');
	int ppid, pgrp;
	char state;

	if (!p || sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
		return -1;
	st->pid = pid;
	st->ppid = (pid_t)ppid;
	st->pgrp = (pid_t)pgrp;
	st->state = state;
	return 0;
}

int proc_stat_read(pid_t pid, struct proc_stat *st)
{
	char path[64];
	struct strbuf buf = STRBUF_INIT;
	int ret = -1;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (!read_small_file(path, 4096, &buf))
		ret = parse_stat(buf.buf, pid, st);
	strbuf_release(&buf);
	return ret;
}

size_t proc_list(struct proc_stat **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t nr = 0, alloc = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		errno = 0;
		pid = strtol(de->d_name, &end, 10);
		if (errno || *end || pid <= 0)
			continue;
		ALLOC_GROW(*out, nr + 1, alloc);
		if (!proc_stat_read((pid_t)pid, &(*out)[nr]))
			nr++;
	}
	closedir(d);
	return nr;
}

bool proc_live(const struct proc_stat *st)
{
	return st->state != 'Z' && st->state != 'X';
}

/* Whether `pid` is `root` or in `below[0..n)`. */
static bool marked(pid_t pid, pid_t root, const pid_t *below, size_t n)
{
	if (pid == root)
		return true;
	for (size_t i = 0; i < n; i++)
		if (below[i] == pid)
			return true;
	return false;
}

unsigned proctree_signal(pid_t root, int sig)
{
	struct proc_stat *all;
	size_t nr = proc_list(&all), n = 0;
	pid_t *below = xcalloc(nr ? nr : 1, sizeof(*below));
	bool *in = xcalloc(nr ? nr : 1, sizeof(*in));
	bool grew = true;
	unsigned count = 0;

	/* one pass a generation: a child is found once its parent is */
	while (grew) {
		grew = false;
		for (size_t i = 0; i < nr; i++) {
			if (in[i] || !marked(all[i].ppid, root, below, n))
				continue;
			in[i] = grew = true;
			below[n++] = all[i].pid;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		if (!in[i] || !proc_live(&all[i]))
			continue;
		if (sig)
			kill(all[i].pid, sig);
		count++;
	}
	free(in);
	free(below);
	free(all);
	return count;
}

bool proc_files_open(const char *const *paths, size_t n, bool *open)
{
	DIR *proc = opendir("/proc");
	struct dirent *pe;

	if (!proc)
		return false;
	while ((pe = readdir(proc))) {
		char fddir[300], link[PATH_MAX];
		DIR *fds;
		struct dirent *fe;

		if (pe->d_name[0] < '0' || pe->d_name[0] > '9')
			continue;
		snprintf(fddir, sizeof(fddir), "/proc/%s/fd", pe->d_name);
		fds = opendir(fddir);
		while (fds && (fe = readdir(fds))) {
			char fdpath[600];
			ssize_t len;

			if (fe->d_name[0] == '.')
				continue;
			snprintf(fdpath, sizeof(fdpath), "%s/%s", fddir,
				 fe->d_name);
			len = readlink(fdpath, link, sizeof(link) - 1);
			if (len <= 0)
				continue;
			link[len] = '\0';
			for (size_t i = 0; i < n; i++)
				if (!strcmp(link, paths[i]))
					open[i] = true;
		}
		if (fds)
			closedir(fds);
	}
	closedir(proc);
	return true;
}
