/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_OPTABLE_H
#define AG_OPTABLE_H

/**
 * The options git's parse-options accepts, per subcommand whose arguments
 * the policy reads (git 2.39; generated into optable-data.c by
 * gen-optable.sh from git's own option lists). Pure: no I/O.
 *
 * Used to read a command line as git reads it: which short letters take a
 * value (the rest of a cluster, or the next token), which long options
 * take the next token; and, for agents, to refuse an option git would
 * accept but the policy cannot name (PRODUCT.md §4: "an option the policy
 * does not know is denied, not passed").
 */
#include "base/common.h"
#include "git/argv.h"

enum git_opt_arg {
	OPT_NOARG = 0,
	OPT_ARG = 1, /* a value: stuck (`-bX`, `--opt=X`) or the next token */
	OPT_OPTARG =
		2, /* an optional value, stuck only (`-n5`, `--track=direct`) */
};

struct git_opt {
	const char *lng; /* without the dashes, NULL for a short-only option */
	char shrt;	 /* 0 when there is none; '#' for git's numeric option
			    (-NUM: `archive -9`, `grep -3`) */
	unsigned char arg; /* enum git_opt_arg */
};

struct git_optable {
	const char *cmd; /* "checkout", or "stash push" for a sub-subcommand */
	const struct git_opt *opts; /* NULL when it has none */
	size_t nr;
	/* the subcommand words git lists for it (`stash`: apply, clear,
	 * drop…), NULL-terminated; NULL when it has none */
	const char *const *verbs;
	/* git expands unique prefixes of its long options; false for a
	 * command that keeps what it does not know for a parser after it
	 * (format-patch, log, diff's options, stash show …): there nothing
	 * is expanded, and an unknown option is no error */
	bool abbrev;
};

extern const struct git_optable git_optables[];
extern const char git_optable_version[]; /* the git it was read from */
#define GIT_OPTABLE_VERSION git_optable_version
extern const size_t git_optables_nr;

/* The table named `cmd` ("branch", "stash push"); NULL when none. */
const struct git_optable *git_optable_named(const char *cmd);

/*
 * What a command reads after its own options, NULL when nothing: the
 * commands that take diff options (log, show, diff-tree, format-patch,
 * `stash show` …) read diff's table (git's revision.c and diff.c).
 */
const struct git_optable *git_optable_next(const char *cmd);

/*
 * A command that hands what its own table does not know to a parser after
 * it (format-patch, log, show, cherry-pick …: git's table says it expands
 * no abbreviation): an option the table does not hold is no error there
 * (git_argv.unknown stays NULL).
 */
bool git_optable_partial(const struct git_optable *t);

/*
 * A command whose first positional ends its options (grep: `git grep x
 * -O` searches `-O` as a revision or path; bundle create: what follows
 * its file is rev-list's).
 */
bool git_optable_stops_at_positional(const char *cmd);

enum git_opt_match {
	OPTM_NONE,
	OPTM_EXACT,
	OPTM_ABBREV,	/* a unique prefix */
	OPTM_AMBIGUOUS, /* a prefix of several: git refuses it */
};

/*
 * The long option `name` (len bytes, without `--` or `=value`) as
 * parse-options resolves it in `t`: the exact name, else (where the table
 * says git expands prefixes) the one option it abbreviates. *m says
 * which; NULL for none or an ambiguous prefix.
 */
const struct git_opt *git_opt_resolve(const struct git_optable *t,
				      const char *name, size_t len,
				      enum git_opt_match *m);

const struct git_opt *git_opt_short(const struct git_optable *t, char c);

#endif
