/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A snapshot that failed for want of space (invariants in
 * snapshot-space.h). The estimate is the bytes of the files `git status`
 * names as changed or untracked: what the snapshot's blobs hold before
 * compression, so an upper bound of what it writes.
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "base/path.h"
#include "base/proctree.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/snapshot-space.h"

bool snapshot_reason_is_space(const char *reason)
{
	static const char *const words[] = {
		"No space left on device",
		"Out of diskspace",
		"Disk quota exceeded",
		"File too large",
	};

	for (size_t i = 0; reason && i < ARRAY_SIZE(words); i++)
		if (strstr(reason, words[i]))
			return true;
	return false;
}

static void add_size(struct strbuf *out, unsigned long long n)
{
	if (n < 10 * 1024)
		strbuf_addf(out, "%llu bytes", n);
	else if (n < 10ULL * 1024 * 1024)
		strbuf_addf(out, "%llu KiB", (n + 1023) / 1024);
	else
		strbuf_addf(out, "%llu MiB", (n + (1 << 20) - 1) >> 20);
}

/* The bytes of the changed and untracked files under `top`. */
static unsigned long long changed_bytes(const char *real_git, const char *top)
{
	struct strbuf out = STRBUF_INIT;
	unsigned long long sum = 0;
	const char *p, *end;

	if (gitcmd_capture(real_git, top, &out, NULL, "status", "--porcelain",
			   "-z", "--no-renames", "--untracked-files=all",
			   "--ignore-submodules", NULL) != 0) {
		strbuf_release(&out);
		return 0;
	}
	end = out.buf + out.len;
	for (p = out.buf; p < end; p += strlen(p) + 1) {
		struct stat st;
		char *path;

		if (strlen(p) < 4)
			continue;
		path = path_join(top, p + 3);
		if (!lstat(path, &st) && S_ISREG(st.st_mode))
			sum += (unsigned long long)st.st_size;
		free(path);
	}
	strbuf_release(&out);
	return sum;
}

static bool free_bytes(const char *path, unsigned long long *n)
{
	struct statvfs v;

	if (statvfs(path, &v) < 0)
		return false;
	*n = (unsigned long long)v.f_bavail * v.f_frsize;
	return true;
}

void snapshot_space_hint(const char *real_git, const char *dir,
			 const char *home, struct strbuf *out)
{
	struct strbuf loc = STRBUF_INIT;
	unsigned long long need = 0, avail;
	char *top = NULL, *common = NULL, *nl;

	if (gitcmd_capture(real_git, dir, &loc, NULL, "rev-parse",
			   "--path-format=absolute", "--show-toplevel",
			   "--git-common-dir", NULL) == 0 &&
	    (nl = strchr(loc.buf, '\n'))) {
		*nl = '\0';
		top = xstrdup(loc.buf);
		common = xstrdup(nl + 1);
		if ((nl = strchr(common, '\n')))
			*nl = '\0';
	}
	if (top)
		need = changed_bytes(real_git, top);
	strbuf_addstr(out, "the disk is full: the snapshot needs up to ");
	add_size(out, need);
	strbuf_addstr(out, " (the changed and untracked files)");
	if (common && free_bytes(common, &avail)) {
		strbuf_addstr(out, ", the repository's disk has ");
		add_size(out, avail);
		strbuf_addf(out, " free (%s)", common);
	}
	if (home && *home && free_bytes(home, &avail)) {
		strbuf_addstr(out, ", AGENTIC_GIT_HOME's disk ");
		add_size(out, avail);
		strbuf_addf(out, " (%s)", home);
	}
	free(top);
	free(common);
	strbuf_release(&loc);
}

static bool is_tmp_name(const char *name)
{
	return starts_with(name, "tmp_pack_") ||
	       starts_with(name, "tmp_idx_") || starts_with(name, "tmp_rev_") ||
	       starts_with(name, "tmp_obj_");
}

static void collect(const char *dir, time_t since, struct strvec *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct stat st;
		char *p;

		if (!is_tmp_name(de->d_name))
			continue;
		p = path_join(dir, de->d_name);
		if (!lstat(p, &st) && S_ISREG(st.st_mode) &&
		    st.st_mtime >= since - 1)
			strvec_push(out, p);
		free(p);
	}
	if (d)
		closedir(d);
}

unsigned snapshot_sweep_failed(const char *commondir, time_t since)
{
	struct strvec cand = STRVEC_INIT;
	struct strbuf dir = STRBUF_INIT;
	unsigned n = 0;
	bool *open;
	/* the names /proc shows are canonical */
	char *common = commondir && *commondir ? real_path(commondir) : NULL;

	if (!common)
		return 0;
	strbuf_addpath(&dir, common, "objects/pack");
	collect(dir.buf, since, &cand);
	for (int i = 0; i < 256; i++) {
		strbuf_reset(&dir);
		strbuf_addpath(&dir, common, "objects");
		strbuf_addf(&dir, "/%02x", i);
		collect(dir.buf, since, &cand);
	}
	open = xcalloc(cand.nr + 1, sizeof(*open));
	/* without /proc nothing can be told apart: nothing is removed */
	if (cand.nr &&
	    proc_files_open((const char *const *)cand.v, cand.nr, open))
		for (size_t i = 0; i < cand.nr; i++)
			if (!open[i] && !unlink(cand.v[i]))
				n++;
	free(open);
	free(common);
	strvec_clear(&cand);
	strbuf_release(&dir);
	return n;
}

unsigned snapshot_sweep_ref_locks(const char *commondir, const char *who)
{
	struct strvec cand = STRVEC_INIT;
	struct strbuf dir = STRBUF_INIT;
	time_t now = time(NULL);
	unsigned n = 0;
	struct dirent *de;
	bool *open;
	DIR *d;

	char *common = real_path(commondir); /* /proc's names are canonical */

	if (!common)
		return 0;
	strbuf_addf(&dir, "%s/refs/agentic-git/snapshots/%s", common, who);
	free(common);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		struct stat st;
		char *p;

		if (!ends_with(de->d_name, ".lock"))
			continue;
		p = path_join(dir.buf, de->d_name);
		if (!lstat(p, &st) && S_ISREG(st.st_mode) &&
		    st.st_mtime < now - SNAPSHOT_REF_LOCK_STALE)
			strvec_push(&cand, p);
		free(p);
	}
	if (d)
		closedir(d);
	open = xcalloc(cand.nr + 1, sizeof(*open));
	if (cand.nr &&
	    proc_files_open((const char *const *)cand.v, cand.nr, open))
		for (size_t i = 0; i < cand.nr; i++)
			if (!open[i] && !unlink(cand.v[i]))
				n++;
	free(open);
	strvec_clear(&cand);
	strbuf_release(&dir);
	return n;
}
