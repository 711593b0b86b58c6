/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_ARGV_H
#define AG_ARGV_H

/**
 * One reading of a git command line (PRODUCT.md §2, "One reading of git's
 * command line"): pure, no I/O.
 *
 * git_argv_parse() reads a command line (without argv[0]) once, the way
 * git reads it: the global options before the subcommand as git.c's
 * handle_options() does (`git -C x -c k=v --no-pager checkout -q main` is
 * `checkout -q main` with a -C and a -c), then the subcommand's own words
 * as its parse-options does, against the option table generated from git
 * itself (git/optable.h): its sub-verb (`stash drop`, `remote add`), every
 * option under its canonical name with its value (`-u x`, `-ux`,
 * `--set-upstream-to=x`, `--set-up x` are one option, "set-upstream-to",
 * value "x"), the positionals as git splits them (an option's value is
 * never one), and where `--` split them. The config the command line
 * carries (-c, --config-env) is in it, and, once git_argv_read_env() has
 * run, the config the environment carries (git/config-env.h).
 *
 * Every rule reads this structure; nothing else reads the words of a
 * command line (ci/static-check.sh checks it). The fields marked private
 * are the words themselves, for the parser and its emitters
 * (git_argv_push_*()) alone.
 *
 * All pointers point into the caller's argv (not owned) or into the
 * option table (static), except the arrays themselves, which
 * git_argv_release() frees.
 */
#include "base/common.h"
#include "base/strvec.h"
#include "git/config-env.h"

/*
 * Longer command lines are refused: above what the kernel passes to a
 * program at all (ARG_MAX is 2 MiB by default, and every argument takes
 * at least two bytes), so nothing real is ever refused (`xargs git add`).
 */
#define GIT_ARGV_MAX (1 << 20)

struct git_optable;
struct git_opt;

enum git_optuse_flags {
	GOPT_NEG = 1 << 0,	 /* --no-<name> (or <name> of a "no-" option) */
	GOPT_UNKNOWN = 1 << 1,	 /* not in the subcommand's table */
	GOPT_AMBIGUOUS = 1 << 2, /* a prefix of several options: git refuses */
	GOPT_ABBREV = 1 << 3,	 /* a unique prefix git expands */
	GOPT_SHORT = 1 << 4,	 /* spelled as a short option (`-u`, `-qu`) */
	GOPT_MISSING = 1 << 5,	 /* takes a value, and none follows */
};

/* One option of the subcommand, as its parse-options reads it. */
struct git_optuse {
	const struct git_opt *def; /* its table entry; NULL when unknown */
	const char *spelled;	   /* where it is spelled: a word, or the
				      letter inside a cluster (`-qu`: "u") */
	size_t spelled_len;	   /* the name as spelled, without `--`,
				      `-` or `=value` */
	const char *value;	   /* stuck or the next word; NULL when none */
	unsigned flags;		   /* enum git_optuse_flags */
	size_t word;		   /* the word it is spelled in (its index
				      among the subcommand's words) */
};

struct git_argv {
	/* private to the parser (git/argv.c, git/cmdline.c): the words.
	 * ci/static-check.sh fails when any other file of src/ reads them */
	struct {
		const char *const *argv; /* the whole command line, not owned */
		size_t argc;
		size_t sub_idx; /* index of the subcommand, == argc if none */
	} words_;

	const char *sub; /* subcommand or NULL */
	/* the sub-verb git reads (`stash drop`, `remote add`, `notes list`),
	 * from git's own list of the subcommand's words; NULL when none.
	 * verb_implied: not spelled, what git does without one (`git stash`,
	 * `git stash -q`: push; `git reflog HEAD`: show) */
	const char *verb;
	bool verb_implied;
	/* every option of the subcommand (and of its verb), in order */
	struct git_optuse *opts;
	size_t nopts;
	/* the positionals as git splits them (the verb is none of them):
	 * pos[0..pos_dd) before `--`, pos[pos_dd..npos) after it */
	const char **pos;
	size_t npos;
	size_t pos_dd;	 /* npos when no `--` split them */
	bool dashdash;	 /* a `--` split them */
	bool pos_leads;	 /* the first word is a positional (the original's
			    "first argument does not start with -") */
	size_t opts_end; /* the word that ended the options (`--`,
			    `--end-of-options`), or the number of words */
	/* the first option the table does not know (or that abbreviates
	 * several), as spelled; NULL when none or when the subcommand has no
	 * table, or hands what it does not know to git's revision parser */
	const char *unknown;
	/* the subcommand's option table (git/optable.h), NULL when none */
	const struct git_optable *table;

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
	/* config from the environment, once git_argv_read_env() has run */
	struct config_env env_config;
	bool env_read;
};

/*
 * Parses argv[0..argc). Never fails; check bad_global/too_long, and
 * `unknown` for an option git's table does not hold.
 */
void git_argv_parse(struct git_argv *ga, const char *const *argv, size_t argc);
void git_argv_release(struct git_argv *ga);

/*
 * Reads the config git would take from the environment (`get` is getenv,
 * or a test's own) into ga->env_config (git/config-env.h). The policy
 * reads it only for agents: the operator's hot path does not pay for it.
 */
void git_argv_read_env(struct git_argv *ga, const char *(*get)(const char *));

/* The subcommand's words are read by git/cmdline.c, from git_argv_parse(). */
void git_cmdline_parse(struct git_argv *ga);

/*
 * Options, by canonical name: the table's long name without a "no-"
 * (`--no-track` is "track", negated; commit's `-n` is "verify", negated),
 * or "-x" for a short option without a long name (`branch -D`). For a
 * subcommand without a table an option is known by its spelling alone
 * ("init" for `--init`, "-i" for `-i`).
 */
bool git_optuse_is(const struct git_optuse *u, const char *name);
/* The last use of `name`, negated or not; NULL when it is not given. */
const struct git_optuse *git_opt_last(const struct git_argv *ga,
				      const char *name);
/* Whether `name` is given and its last use is not negated. */
bool git_opt_on(const struct git_argv *ga, const char *name);
/* Whether any name of the NULL-terminated `names` is on (git_opt_on()). */
bool git_opt_any_on(const struct git_argv *ga, const char *const *names);
/* How many times `name` is given since its last negation (`-ff`: 2). */
size_t git_opt_count(const struct git_argv *ga, const char *name);
/* The value of the last use of `name` that has one; NULL when none. */
const char *git_opt_value(const struct git_argv *ga, const char *name);
/* The i-th positional, or NULL. */
const char *git_pos(const struct git_argv *ga, size_t i);
/* The option's name as the user spelled it, for messages ("--set-up",
 * "-u"): written into buf (at least 3 bytes), truncated to fit. */
const char *git_optuse_spelling(const struct git_optuse *u, char *buf,
				size_t len);

/*
 * The emitters: the words git will get, built from the parse (the only
 * writers of a command line, beside the parser its only readers).
 * Insertions go before a word of the subcommand (`word`, as in
 * git_optuse.word; the number of words for after the last one).
 */
struct git_insert {
	size_t word;
	const char *const *words; /* NULL-terminated */
};

struct git_emit {
	bool routed; /* drop -C, --git-dir, --work-tree and their values */
	const struct git_insert *ins;
	size_t nins;
};

/*
 * Appends the command line to `out` as `e` says; *sub_args_at is the
 * index in `out` of the subcommand's first word, *opts_end_at that of the
 * word that ends its options (`--`, or its words' end).
 */
void git_argv_emit(const struct git_argv *ga, const struct git_emit *e,
		   struct strvec *out, size_t *sub_args_at,
		   size_t *opts_end_at);
/* The subcommand's words, every option of `drop` (canonical names)
 * left out, clusters split: clean's dry run without -n, -i, -q. */
void git_argv_push_without(const struct git_argv *ga, const char *const *drop,
			   struct strvec *out);
/* The whole command line, as given (an audit record). */
void git_argv_push_all(const struct git_argv *ga, struct strvec *out);
/* The subcommand's option words with their values, as spelled (a
 * cluster stays one word), without the positionals and `--`: what a
 * verb's options are when the shim runs the verb its own way. */
void git_argv_push_options(const struct git_argv *ga, struct strvec *out);
/* The subcommand's words after its verb (all of them when the verb is
 * implied or there is none), as spelled. */
void git_argv_push_after_verb(const struct git_argv *ga, struct strvec *out);

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
