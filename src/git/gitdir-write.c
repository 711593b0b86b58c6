/* SPDX-License-Identifier: Apache-2.0 */
/* A new repository written in git's on-disk format (gitdir-write.h). */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "git/gitdir-write.h"
#include "git/repo-probe.h"

bool gitdir_objfmt_ok(const char *objfmt)
{
	return repo_probe_objfmt_of(objfmt) != PROBE_OBJFMT_OTHER;
}

void gitdir_config_value(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_addf(sb, "\t%s = \"", key);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			strbuf_addch(sb, '\\');
		if (*v == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*v == '\t')
			strbuf_addstr(sb, "\\t");
		else
			strbuf_addch(sb, *v);
	}
	strbuf_addstr(sb, "\"\n");
}

/*
 * The repository is new and ours, so a plain O_EXCL create is enough: no
 * temp file, rename or fsync (a crash mid-way leaves a half-made
 * repository either way, and nobody uses it before the caller returns).
 */
int gitdir_put(const char *git_dir, const char *name, const char *content)
{
	struct strbuf path = STRBUF_INIT;
	char *dir;
	int rc = 0, fd = -1;

	strbuf_addf(&path, "%s/%s", git_dir, name);
	dir = path_dirname(path.buf);
	if (mkdir_p(dir, 0755) < 0 ||
	    (fd = open(path.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			       O_CLOEXEC, 0644)) < 0 ||
	    write_all(fd, content, strlen(content)) < 0)
		rc = error_errno("cannot write '%s'", path.buf);
	if (fd >= 0 && close(fd) < 0 && !rc)
		rc = error_errno("cannot write '%s'", path.buf);
	free(dir);
	strbuf_release(&path);
	return rc;
}

int gitdir_put_ref(const char *git_dir, const char *ref, const char *oid)
{
	char *val = xstrfmt("%s\n", oid);
	int rc = gitdir_put(git_dir, ref, val);

	free(val);
	return rc;
}

static void config_text(const struct gitdir_spec *s, struct strbuf *cfg)
{
	bool v1 = s->objfmt && strcmp(s->objfmt, "sha1");

	strbuf_addf(cfg, "[core]\n\trepositoryformatversion = %d\n"
		    "\tfilemode = true\n\tbare = %s\n", v1 ? 1 : 0,
		    s->bare ? "true" : "false");
	if (!s->bare)
		strbuf_addstr(cfg, "\tlogallrefupdates = true\n");
	if (s->hooks_path)
		gitdir_config_value(cfg, "hooksPath", s->hooks_path);
	if (v1) {
		strbuf_addstr(cfg, "[extensions]\n");
		gitdir_config_value(cfg, "objectformat", s->objfmt);
	}
	if (s->extra_config)
		strbuf_addstr(cfg, s->extra_config);
}

int gitdir_write(const struct gitdir_spec *s)
{
	struct strbuf cfg = STRBUF_INIT, tmp = STRBUF_INIT;
	int rc;

	if (!gitdir_objfmt_ok(s->objfmt))
		return GITDIR_UNSUPPORTED;
	config_text(s, &cfg);
	rc = gitdir_put(s->git_dir, "config", cfg.buf);
	if (!rc && s->alternates) {
		strbuf_addf(&tmp, "%s\n", s->alternates);
		rc = gitdir_put(s->git_dir, "objects/info/alternates", tmp.buf);
	}
	for (size_t i = 0; !rc && i < 4; i++) {
		static const char *const dirs[] = { "objects/info", "objects/pack",
						    "refs/heads", "refs/tags" };
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s/%s", s->git_dir, dirs[i]);
		if (mkdir_p(tmp.buf, 0755) < 0)
			rc = error_errno("cannot create '%s'", tmp.buf);
	}
	if (!rc) {
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "ref: refs/heads/%s\n", s->head);
		rc = gitdir_put(s->git_dir, "HEAD", tmp.buf);
	}
	strbuf_release(&cfg);
	strbuf_release(&tmp);
	return rc;
}
