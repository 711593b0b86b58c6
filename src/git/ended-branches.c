/* SPDX-License-Identifier: Apache-2.0 */
/* Ended sessions' branches; see ended-branches.h. */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/ended-branches.h"

/* Each `<commondir>\t<branch>` line of `data` for `commondir` (invariants
 * 1, 2); `agent` NULL: only asks whether `branch` is there. */
static bool scan(const char *data, const char *commondir, const char *agent,
		 const char *want, struct strvec *branches,
		 struct strvec *agents)
{
	size_t clen = strlen(commondir);
	const char *why;

	for (const char *l = data; *l;) {
		const char *nl = strchrnul(l, '\n'), *b = l + clen + 1;

		if (*nl && (size_t)(nl - l) > clen + 1 &&
		    !strncmp(l, commondir, clen) && l[clen] == '\t') {
			char *br = xstrndup(b, (size_t)(nl - b));
			bool ok = ag_branch_name_valid(br, &why);

			if (ok && want && !strcmp(br, want)) {
				free(br);
				return true;
			}
			if (ok && branches) {
				strvec_push(branches, br);
				if (agents)
					strvec_push(agents, agent);
			}
			free(br);
		}
		l = *nl ? nl + 1 : nl;
	}
	return false;
}

int ended_branch_record(const char *home, const char *agent,
			const char *commondir, const char *branch)
{
	struct strbuf path = STRBUF_INIT, old = STRBUF_INIT, line = STRBUF_INIT;
	const char *why;
	struct stat st;
	int fd = -1, rc = -1;

	if (!ag_agent_name_valid(agent, &why) ||
	    !ag_branch_name_valid(branch, &why) || *commondir != '/' ||
	    strpbrk(commondir, "\t\n")) {
		errno = EINVAL;
		return -1;
	}
	strbuf_addf(&path, "%s/" ENDED_DIR, home);
	if (mkdir(path.buf, 0700) < 0 && errno != EEXIST)
		goto out;
	strbuf_addf(&path, "/%s", agent);
	fd = open(path.buf,
		  O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	if (fstat(fd, &st) < 0)
		goto out;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto out;
	}
	/* invariant 3: once per (repository, branch) */
	if (read_file_bounded(path.buf, ENDED_MAX, RF_REGULAR, &old) == 0 &&
	    scan(old.buf, commondir, NULL, branch, NULL, NULL)) {
		rc = 0;
		goto out;
	}
	strbuf_addf(&line, "%s\t%s\n", commondir, branch);
	rc = write_all(fd, line.buf, line.len);
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	strbuf_release(&old);
	strbuf_release(&line);
	return rc;
}

int ended_branches_read(const char *home, const char *commondir,
			struct strvec *branches, struct strvec *agents)
{
	struct strbuf dir = STRBUF_INIT, data = STRBUF_INIT;
	struct dirent *e;
	const char *why;
	DIR *d;

	strbuf_addf(&dir, "%s/" ENDED_DIR, home);
	d = opendir(dir.buf);
	if (!d) {
		int rc = errno == ENOENT ? 0 : -1;
		strbuf_release(&dir);
		return rc;
	}
	while ((e = readdir(d))) {
		char *p;

		if (!ag_agent_name_valid(e->d_name, &why))
			continue;
		p = xstrfmt("%s/%s", dir.buf, e->d_name);
		strbuf_reset(&data);
		if (read_file_bounded(p, ENDED_MAX, RF_REGULAR, &data) == 0)
			scan(data.buf, commondir, e->d_name, NULL, branches,
			     agents);
		free(p);
	}
	closedir(d);
	strbuf_release(&dir);
	strbuf_release(&data);
	return 0;
}
