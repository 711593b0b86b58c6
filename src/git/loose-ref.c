/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/refname.h"
#include "base/strbuf.h"
#include "git/loose-ref.h"
#include "git/repo-probe.h"

static bool valid_oid(const char *oid)
{
	size_t n = strlen(oid);

	return (n == 40 || n == 64) && is_lower_hex(oid, n);
}

/* refs/…, by git's rules (base/refname.h) */
static bool valid_ref(const char *ref)
{
	return starts_with(ref, "refs/") && refname_valid(ref, 0);
}

enum loose_ref_result loose_ref_create(const char *commondir, const char *ref,
				       const char *oid)
{
	struct strbuf path = STRBUF_INIT, lock = STRBUF_INIT,
		      line = STRBUF_INIT;
	const struct repo_probe *p;
	enum loose_ref_result ret = LOOSE_REF_UNSUPPORTED;
	char *dir = NULL;
	int fd = -1;

	if (!commondir || commondir[0] != '/' || !valid_ref(ref) ||
	    !valid_oid(oid))
		goto out;
	/* files backend, this object format, modes git would not adjust */
	p = repo_probe_get(commondir, NULL);
	if (!repo_probe_ref_writes_ours(p) ||
	    strlen(oid) != repo_probe_hexlen(p))
		goto out;
	strbuf_addf(&path, "%s/%s", commondir, ref);
	strbuf_addf(&lock, "%s.lock", path.buf);
	dir = path_dirname(path.buf);
	if (mkdir_p(dir, 0777) < 0)
		goto out;
	fd = open(lock.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0666);
	if (fd < 0) {
		if (errno == EEXIST)
			ret = LOOSE_REF_EXISTS;
		goto out;
	}
	strbuf_addf(&line, "%s\n", oid);
	if (write_all(fd, line.buf, line.len) < 0 || close(fd) < 0) {
		fd = -1;
		unlink(lock.buf);
		goto out;
	}
	fd = -1;
	/* link, not rename: it fails when the ref appeared meanwhile */
	if (link(lock.buf, path.buf) == 0)
		ret = LOOSE_REF_CREATED;
	else if (errno == EEXIST)
		ret = LOOSE_REF_EXISTS;
	unlink(lock.buf);
out:
	if (fd >= 0)
		close(fd);
	free(dir);
	strbuf_release(&path);
	strbuf_release(&lock);
	strbuf_release(&line);
	return ret;
}
