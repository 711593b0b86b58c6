/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_ARGV_H
#define AG_ARGV_H

/**
 * git argv normalisation: pure, no I/O.
 *
 * Splits a git command line (without argv[0]) into its global options and
 * the subcommand with its arguments, the way git's own handle_options()
 * does, so that `git -C x -c k=v --no-pager checkout -q main` is seen as
 * `checkout -q main` with a -C and a -c.
 *
 * All pointers in struct git_argv point into the caller's argv (not owned)
 * except the arrays themselves, which git_argv_release() frees.
 */
#include "base/common.h"
#include "base/strvec.h"

/*
 * Longer command lines are refused: above what the kernel passes to a
 * program at all (ARG_MAX is 2 MiB by default, and every argument takes
 * at least two bytes), so nothing real is ever refused (`xargs git add`).
 */
#define GIT_ARGV_MAX (1 << 20)

struct git_optable;

struct git_argv {
	const char *const *argv; /* the whole command line, not owned */
	size_t argc;
	size_t sub_idx;		 /* index of the subcommand, == argc if none */
	const char *sub;	 /* subcommand or NULL */
	const char *const *args; /* arguments after the subcommand */
	size_t nargs;

	/* globals */
	const char **chdirs; /* -C values in order */
	size_t nchdirs;
	const char **configs; /* -c key[=value] values */
	size_t nconfigs;
	const char **config_envs; /* --config-env name=ENVVAR values */
	size_t nconfig_envs;
	const char *git_dir;	/* --git-dir */
	const char *work_tree;	/* --work-tree */
	const char *namespace_; /* --namespace */
	const char *exec_path;	/* --exec-path=<p> */
	const char *bad_global; /* first global git would not accept */
	bool info_only;		/* --version/--help/--exec-path alone… */
	bool too_long;
	/* index in `args` of the `--` that ends the subcommand's options,
	 * nargs when none: with the subcommand's option table, a `--` that
	 * is an option's value does not (`reset --pathspec-from-file --
	 * --hard` reads a file named `--` and resets hard) */
	size_t opts_end;
	/* the same for the first `--` or `--end-of-options`, whichever
	 * comes first: where parse-options stops reading options */
	size_t opts_stop;
	/* the subcommand's option table (git/optable.h), NULL when none */
	const struct git_optable *table;
	/* owned: `args` with stuck and clustered short options split, when
	 * any were (git/argv-shorts.c); `argv` is never changed */
	struct strvec split;
};

/*
 * Parses argv[0..argc). Never fails; check bad_global/too_long. `args` is
 * what the subcommand's parse-options reads: `checkout -qBX` gives
 * `-q -B X` (git_argv_split_shorts()).
 */
void git_argv_parse(struct git_argv *ga, const char *const *argv, size_t argc);
void git_argv_split_shorts(struct git_argv *ga);
void git_argv_release(struct git_argv *ga);

/*
 * True when the global option `opt`, spelled exactly so (no `=`), takes the
 * next argument as its value: -C, -c, --git-dir, --namespace …
 */
bool git_global_takes_value(const char *opt);

/*
 * Splits `key[=value]` of a -c option: writes the key (lower-cased section
 * and variable name, subsection kept) into key and returns the value
 * pointer, or NULL for a bare key.
 */
const char *git_config_split(const char *kv, char *key, size_t keylen);

/*
 * True when persisting `key` (or passing it with -c) could run code, move
 * git's target or silence our hooks: core.hooksPath, core.fsmonitor,
 * core.sshCommand, core.pager, core.editor, core.askPass, credential.*,
 * alias.*, include.*, includeIf.*, filter.*, diff.*.textconv, remote.*.url …
 * `key` is as returned by git_config_split().
 */
bool git_config_key_dangerous(const char *key);

/*
 * Values of editor/pager keys that run nothing (`true`, `:`, `cat`):
 * `git -c core.editor=true rebase --continue` is an everyday agent idiom.
 * Also values that only take something away and leave the hooks alone (an
 * empty or false core.fsmonitor, an empty credential.helper, core.askPass,
 * core.sshCommand or diff.external, credential.interactive=never): agents'
 * tool shells set them for every command.
 */
bool git_config_value_inert(const char *key, const char *value);

/*
 * core.hooksPath=/dev/null or empty: harmless on a read-only command, where
 * agents' own start-up probes pass it; never on a command that writes
 * (hooks are the audit) — but see config_env_hooks_off().
 */
bool git_config_value_disables(const char *key, const char *value);

/*
 * True when an agent may persist `key` (as git_config_split() returns it)
 * with `git config`: an allowlist of everyday repository options (user.*,
 * branch.<b>.remote/merge/rebase, line-ending and file-mode options,
 * pull/merge/rebase/diff/status/log/color options, advice.*).
 */
bool git_config_key_persistable(const char *key);

#endif
