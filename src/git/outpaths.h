/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_OUTPATHS_H
#define AG_OUTPATHS_H

/**
 * Output paths: where a git command line writes a file it is told to
 * write (`archive -o <file>`, `diff --output=<file>`, `format-patch -o
 * <dir>`, `mailinfo <msg> <patch>`, `bundle create <file>`, …).
 *
 * git_output_paths() is pure: it reads the command line the way the
 * command's own option parser does, fail-closed (abbreviated long options
 * count, a value it cannot find is `bad`). out_path_judge() does the I/O:
 * it resolves a path as the command will and says whether it stays inside
 * the agent's worktree. All `path`/`opt` pointers point into the argv or
 * are static strings (not owned).
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/argv.h"

/* More output paths than this on one command line are not judged: bad. */
#define GIT_OUT_MAX 16

enum out_kind {
	OUT_FILE,   /* a file written whole (may exist: it is overwritten) */
	OUT_DIR,    /* a directory files are written into */
	OUT_PREFIX, /* a prefix the written names start with */
};

struct git_out {
	const char *path; /* the value as given; NULL when `bad` */
	const char *opt;  /* how the command names it: "-o", "--output", … */
	enum out_kind kind;
	const char *bad; /* non-NULL: a form that writes, not judgeable (why) */
	bool from_top;	 /* the command may resolve it from the repository's
			     top, not from its working directory */
	bool new_repo;	 /* init's directory: a repository is made (or
			    re-initialised) there */
};

struct git_outs {
	struct git_out v[GIT_OUT_MAX];
	size_t nr;
	bool overflow; /* more than GIT_OUT_MAX: judged as bad */
};

/* Fills `out` (overwritten) with every output path of ga's command;
 * returns out->nr (0 for the hot path's commands). */
size_t git_output_paths(const struct git_argv *ga, struct git_outs *out);

enum out_state {
	OUTP_INSIDE,   /* inside the worktree (not its .git, not the marker) */
	OUTP_OUTSIDE,  /* somewhere else */
	OUTP_UNJUDGED, /* cannot be resolved (a dangling link, `..` below a
			  directory that does not exist yet, a bad form) */
};

/*
 * Resolves `path` as a command running in `cwd` would (an absolute path
 * as is; symlinks resolved, the last component too; components that do
 * not exist yet appended) and judges it against the canonical worktree
 * `wt`. A relative path is judged from `cwd` and, when `top` is non-NULL
 * and differs (pass it for an output that is `from_top`), also from
 * `top`: both must be inside. Appends each resolved absolute
 * path to `resolved` (NUL-terminated, caller-owned), worst state wins.
 */
enum out_state out_path_judge(const char *path, const char *cwd,
			      const char *top, const char *wt,
			      struct strbuf *resolved);

#endif
