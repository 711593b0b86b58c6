/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a command line writes the files it is told to write (git/outpaths.h).
 * Found by the invariant fuzzer (docs/fuzzing.md I5, I6): `archive -o
 * <the operator's README.md>`, `mailinfo - ~/.gitconfig`.
 *
 * Invariants:
 *  1. The scan is pure and reads the one parse (git/argv.h): an output
 *     option counts in every spelling git accepts (abbreviated, stuck,
 *     clustered, its value the next word); where no table names a word,
 *     or git would refuse it as ambiguous, a spelling that could
 *     abbreviate an output option counts as it (fail-closed); every
 *     positional of a command that writes its positionals is a path. A
 *     writing form whose value cannot be found is `bad`, never skipped.
 *  2. A path is inside only when its resolved location is: the real path
 *     of the longest part that exists (every symlink followed, the last
 *     component's too), the rest appended without `..`; a dangling link is
 *     not judged.
 *  3. The worktree's `.git` and session marker are not inside: they are
 *     the repository and the sibling boundary, not the agent's files.
 */
#include "base/common.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/path.h"
#include "git/classify.h"
#include "git/optable.h"
#include "git/outpaths.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */

struct long_out {
	const char *name; /* the option's canonical name */
	size_t min;	  /* the shortest spelling counted where a table
			     does not know it (fail-closed) */
	enum out_kind kind;
	const char *const *subs; /* NULL: every subcommand (diff options) */
};

static const char *const fast_export[] = { "fast-export", "fast-import", NULL };
static const char *const read_tree[] = { "read-tree", NULL };
static const char *const obj_dir[] = { "commit-graph", "multi-pack-index",
				       NULL };
static const char *const co_index[] = { "checkout-index", NULL };
static const char *const init[] = { "init", "init-db", "clone", NULL };
static const char *const apply[] = { "apply", NULL };

static const struct long_out longs[] = {
	/* every command that takes diff options (diff, log, show, stash
	 * show, range-diff, rev-list…), archive, format-patch */
	{ "output", 3, OUT_FILE, NULL },
	/* format-patch, bugreport, diagnose */
	{ "output-directory", 10, OUT_DIR, NULL },
	{ "export-marks", 4, OUT_FILE, fast_export },
	{ "index-output", 4, OUT_FILE, read_tree },
	{ "object-dir", 4, OUT_DIR, obj_dir },
	{ "prefix", 4, OUT_PREFIX, co_index },
	{ "separate-git-dir", 4, OUT_DIR, init },
	{ "directory", 4, OUT_PREFIX, apply },
};

static void add(struct git_outs *o, const char *path, const char *opt,
		enum out_kind kind, const char *bad)
{
	if (o->nr == GIT_OUT_MAX) {
		o->overflow = true;
		return;
	}
	o->v[o->nr].path = bad ? NULL : path;
	o->v[o->nr].opt = opt;
	o->v[o->nr].kind = kind;
	o->v[o->nr].bad = bad;
	o->nr++;
}

static bool sub_in(const struct git_argv *ga, const char *const *subs)
{
	return !subs || git_word_in(ga->sub, subs);
}

/* An option no table names (or git refuses) that spells a prefix of
 * `name`: counted as it (invariant 1). */
static bool spells_prefix(const struct git_optuse *u, const char *name,
			  size_t min)
{
	return (u->flags & (GOPT_UNKNOWN | GOPT_AMBIGUOUS)) &&
	       !(u->flags & GOPT_SHORT) && u->spelled_len >= min &&
	       u->spelled_len <= strlen(name) &&
	       !strncmp(u->spelled, name, u->spelled_len);
}

/* A suffix git appends to a name it makes: a `/` in it picks the directory. */
static void suffix_check(struct git_outs *o, const char *v, const char *opt)
{
	if (!v || strchr(v, '/'))
		add(o, NULL, opt, OUT_FILE,
		    v ? "a suffix with a '/' writes into another directory"
		      : "no value");
}

/* One option of the parse: an output path it names, if any. */
static void scan_opt(const struct git_argv *ga, const struct git_optuse *u,
		     struct git_outs *o)
{
	static const char *const sfx_cmds[] = { "bugreport", "diagnose",
						"format-patch", NULL };
	static const char *const o_cmds[] = { "mailsplit", "index-pack", NULL };

	if (u->flags & GOPT_NEG)
		return; /* --no-output names no file */
	for (size_t k = 0; k < ARRAY_SIZE(longs); k++) {
		const struct long_out *l = &longs[k];
		if (!sub_in(ga, l->subs) ||
		    (!git_optuse_is(u, l->name) &&
		     !spells_prefix(u, l->name, l->min)))
			continue;
		add(o, u->value, l->name, l->kind,
		    u->value && *u->value ? NULL : "no value");
		return;
	}
	/* a flag: its last use decides (`--unsafe-paths --no-unsafe-paths`
	 * is safe, as git reads it; the equivalence test found it) */
	if (!strcmp(ga->sub, "apply") &&
	    ((git_optuse_is(u, "unsafe-paths") &&
	      git_opt_last(ga, "unsafe-paths") == u) ||
	     spells_prefix(u, "unsafe-paths", 5))) {
		add(o, NULL, "--unsafe-paths", OUT_FILE,
		    "it lets a patch write outside the work tree");
		return;
	}
	if (git_word_in(ga->sub, sfx_cmds) &&
	    (git_optuse_is(u, "suffix") || spells_prefix(u, "suffix", 3))) {
		suffix_check(o, u->value, "--suffix");
		return;
	}
	/* commands git reads by hand: mailsplit's -o<dir> (stuck only), and
	 * index-pack's -o <file> (its value is one of the positionals,
	 * every one judged) */
	if (git_word_in(ga->sub, o_cmds) && (u->flags & GOPT_SHORT) &&
	    !u->def && starts_with(u->spelled, "-o")) {
		bool mailsplit = !strcmp(ga->sub, "mailsplit");
		if (u->spelled[2] || mailsplit)
			add(o, u->spelled + 2, "-o",
			    mailsplit ? OUT_DIR : OUT_FILE,
			    u->spelled[2] ? NULL : "no value");
	}
}

/* Commands whose positionals are written: every one is judged. */
static void scan_positionals(const struct git_argv *ga, struct git_outs *o)
{
	enum out_kind kind = OUT_FILE;
	const char *how = "<path>";

	if (!strcmp(ga->sub, "pack-objects") || !strcmp(ga->sub, "index-pack"))
		kind = OUT_PREFIX;
	else if (!strcmp(ga->sub, "bundle"))
		how = "<file>";
	else if (strcmp(ga->sub, "mailinfo") && strcmp(ga->sub, "merge-file"))
		return;
	/* these write to stdout instead */
	if ((!strcmp(ga->sub, "merge-file") ||
	     !strcmp(ga->sub, "pack-objects")) &&
	    git_opt_on(ga, "stdout"))
		return;
	/* only `bundle create <file> <rev-list args>` writes; its revisions
	 * are judged too (fail-closed) */
	if (!strcmp(ga->sub, "bundle") &&
	    (!ga->verb || strcmp(ga->verb, "create")))
		return;
	for (size_t i = 0; i < ga->npos; i++)
		add(o, ga->pos[i], how, kind, NULL);
}

/*
 * init's <directory> and clone's <dir>: a repository is made there
 * (docs/fuzzing.md I15: a bound agent's `init <the bare remote>` made
 * <remote>/.git, which every later fetch and push by path then found
 * first). With none, init makes (or re-makes) the working directory's and
 * clone makes one under it. init's are `new_repo`: where one exists
 * already, git re-initialises it (docs/fuzzing.md I22).
 */
static void scan_new_repo(const struct git_argv *ga, struct git_outs *o)
{
	static const char *const inits[] = { "init", "init-db", NULL };
	bool clone = !strcmp(ga->sub, "clone");
	size_t start, first = clone ? 1 : 0;

	if (!clone && !git_word_in(ga->sub, inits))
		return;
	if (ga->npos > GIT_OUT_MAX) {
		o->overflow = true;
		return;
	}
	start = o->nr;
	if (ga->npos == first)
		add(o, ".", "<the working directory>", OUT_DIR, NULL);
	for (size_t i = first; i < ga->npos; i++)
		add(o, ga->pos[i], "<directory>", OUT_DIR, NULL);
	for (size_t i = start; !clone && i < o->nr; i++)
		o->v[i].new_repo = true;
}

size_t git_output_paths(const struct git_argv *ga, struct git_outs *out)
{
	/* tried (git 2.39): these open a relative path from the top
	 * (fast-export, read-tree, checkout-index), or were not tried and
	 * are judged both ways; diff options, archive, format-patch,
	 * mailinfo, mailsplit, bundle, bugreport, diagnose, merge-file,
	 * init and clone resolve from the working directory */
	static const char *const from_top[] = {
		"fast-export",	"fast-import",
		"read-tree",	"checkout-index",
		"pack-objects", "index-pack",
		"commit-graph", "multi-pack-index",
		"apply",	NULL
	};
	static const char *const writes_here[] = { "bugreport", "diagnose",
						   NULL };

	memset(out, 0, sizeof(*out));
	if (!ga->sub)
		return 0;
	for (size_t i = 0; i < ga->nopts; i++)
		scan_opt(ga, &ga->opts[i], out);
	scan_positionals(ga, out);
	scan_new_repo(ga, out);
	/* they write their report into the working directory unless -o
	 * says otherwise (and --no-output-directory says so again);
	 * format-patch its patches, unless the last of --stdout and
	 * --no-stdout is --stdout (docs/fuzzing.md I21: an unbound agent's
	 * format-patch wrote four files into the operator's checkout),
	 * counted beside -o too: fail-closed, since a routed agent's working
	 * directory is its worktree */
	if (git_word_in(ga->sub, writes_here) ||
	    (!strcmp(ga->sub, "format-patch") && !git_opt_on(ga, "stdout")))
		add(out, ".", "<the working directory>", OUT_DIR, NULL);
	for (size_t i = 0; i < out->nr; i++)
		out->v[i].from_top = git_word_in(ga->sub, from_top);
	if (out->overflow)
		out->nr = 0, add(out, NULL, "", OUT_FILE, "too many to judge");
	return out->nr;
}

/* ---- resolving (I/O) ---- */

/*
 * The location `abs` names once written: realpath(3) of its longest
 * existing part, the rest appended. -1 for what cannot be judged: a
 * dangling or looping link, `..` below a missing directory, an error.
 */
static int resolve(const char *abs, struct strbuf *out)
{
	struct strbuf cur = STRBUF_INIT, rest = STRBUF_INIT;
	char real[PATH_MAX];
	struct stat st;
	int ret = -1;

	strbuf_addstr(&cur, abs);
	for (;;) {
		char *slash;
		while (cur.len > 1 && cur.buf[cur.len - 1] == '/')
			strbuf_setlen(&cur, cur.len - 1);
		if (realpath(cur.buf, real)) {
			strbuf_addstr(out, real);
			strbuf_addbuf(out, &rest);
			ret = 0;
			break;
		}
		if ((errno != ENOENT && errno != ENOTDIR) ||
		    !lstat(cur.buf, &st))
			break; /* an error, or a link to nowhere */
		slash = strrchr(cur.buf, '/');
		if (!slash || slash == cur.buf + cur.len - 1)
			break;
		if (!strcmp(slash + 1, ".."))
			break;
		if (strcmp(slash + 1, ".")) {
			struct strbuf t = STRBUF_INIT;
			strbuf_addstr(&t, slash);
			strbuf_addbuf(&t, &rest);
			strbuf_reset(&rest);
			strbuf_addbuf(&rest, &t);
			strbuf_release(&t);
		}
		strbuf_setlen(&cur,
			      slash == cur.buf ? 1 : (size_t)(slash - cur.buf));
	}
	strbuf_release(&cur);
	strbuf_release(&rest);
	return ret;
}

static enum out_state judge_one(const char *path, const char *base,
				const char *wt, struct strbuf *resolved)
{
	struct strbuf abs = STRBUF_INIT, r = STRBUF_INIT;
	enum out_state st = OUTP_UNJUDGED;
	const char *rel;

	if (path[0] == '/')
		strbuf_addstr(&abs, path);
	else
		strbuf_addf(&abs, "%s/%s", base, path);
	if (!resolve(abs.buf, &r)) {
		st = OUTP_OUTSIDE;
		if (path_inside(r.buf, wt, &rel) && strcmp(rel, ".git") &&
		    !starts_with(rel, ".git/") &&
		    strcmp(rel, SESSION_MARKER_NAME))
			st = OUTP_INSIDE;
		strbuf_add(resolved, r.buf, r.len + 1);
	}
	strbuf_release(&abs);
	strbuf_release(&r);
	return st;
}

enum out_state out_path_judge(const char *path, const char *cwd,
			      const char *top, const char *wt,
			      struct strbuf *resolved)
{
	enum out_state a, b = OUTP_INSIDE;

	if (!path || !*path || !cwd || !wt)
		return OUTP_UNJUDGED;
	a = judge_one(path, cwd, wt, resolved);
	if (path[0] != '/' && top && strcmp(top, cwd))
		b = judge_one(path, top, wt, resolved);
	return a > b ? a : b;
}
