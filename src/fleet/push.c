/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include "base/die.h"
#include "base/fileio.h"
#include <sys/stat.h>
#include "base/path.h"
#include "git/gitcmd.h"
#include "fleet/push.h"
#include "git/gitdir-write.h"

const char *push_status_str(enum push_status s)
{
	switch (s) {
	case PUSH_PUSHED:
		return "pushed";
	case PUSH_LEASE_REFUSED:
		return "lease-refused";
	case PUSH_FAILED:
		return "push-failed";
	default:
		return "none";
	}
}

/*
 * The bare push repository, written directly (no `git init` process) in
 * the workspace's object format; `git init` for a format gitdir_write()
 * does not know.
 */
static int ensure_push_repo(const char *repo, const char *objfmt,
			    struct strbuf *detail)
{
	struct strbuf err = STRBUF_INIT, f = STRBUF_INIT;
	struct gitdir_spec spec = { .git_dir = repo, .bare = true,
				    .objfmt = objfmt, .head = "main",
				    .hooks_path = "/dev/null" };
	int rc = 0;

	if (is_dir(repo))
		return 0;
	if (gitdir_objfmt_ok(objfmt)) {
		if (mkdir(repo, 0700) < 0 || gitdir_write(&spec) != 0) {
			strbuf_addf(detail, "cannot create %s", repo);
			rc = -1;
		}
	} else {
		strbuf_addf(&f, "--object-format=%s", objfmt);
		if (gitcmdl(GIT_OPERATOR, NULL, NULL, &err, "init", "-q",
			    "--bare", f.buf, repo, NULL)) {
			strbuf_addf(detail, "cannot create %s: %s", repo, err.buf);
			rc = -1;
		}
	}
	strbuf_release(&err);
	strbuf_release(&f);
	return rc;
}

int push_repo_prepare(const struct push_req *req, struct strbuf *detail)
{
	struct strbuf alt = STRBUF_INIT;
	char *alt_path = NULL;
	int rc = -1;

	if (ensure_push_repo(req->push_repo, req->objfmt, detail) < 0)
		goto out;
	alt_path = path_join(req->push_repo, "objects/info/alternates");
	for (size_t i = 0; i < req->stores_nr; i++)
		strbuf_addf(&alt, "%s\n", req->stores[i]);
	if (write_file_atomic(alt_path, alt.buf, alt.len, 0600) < 0) {
		strbuf_addf(detail, "cannot write %s: %s", alt_path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(alt_path);
	strbuf_release(&alt);
	return rc;
}

enum push_status push_run(const struct push_req *req, struct strbuf *detail)
{
	struct strbuf alt = STRBUF_INIT, err = STRBUF_INIT, lease = STRBUF_INIT,
		      spec = STRBUF_INIT, commit = STRBUF_INIT;
	char *alt_path = NULL;
	enum push_status st = PUSH_FAILED;

	if (push_repo_prepare(req, detail) < 0)
		goto out;
	/* A missing object makes the push itself fail; no separate check. */
	strbuf_addf(&lease, "--force-with-lease=refs/heads/%s:%s", req->head,
		    req->expected_sha);
	strbuf_addf(&spec, "%s:refs/heads/%s", req->sha, req->head);
	strbuf_reset(&err);
	if (!gitcmdl(GIT_OPERATOR, req->push_repo, NULL, &err, "push",
		     "--quiet", "--no-verify", lease.buf, "--", req->url, spec.buf,
		     NULL)) {
		st = PUSH_PUSHED;
		goto out;
	}
	strbuf_trim(&err);
	strbuf_addbuf(detail, &err);
	if (strstr(err.buf, "stale info") || strstr(err.buf, "(fetch first)"))
		st = PUSH_LEASE_REFUSED;
out:
	free(alt_path);
	strbuf_release(&alt);
	strbuf_release(&err);
	strbuf_release(&lease);
	strbuf_release(&spec);
	strbuf_release(&commit);
	return st;
}
