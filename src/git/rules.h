/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_RULES_H
#define AG_RULES_H

/**
 * The policy table (PRODUCT.md §2, §4): one row per git subcommand, the way
 * git's builtin command table or a doas.conf reads — one row, one answer to
 * "what is the rule for `git branch`?". Pure: no I/O.
 *
 * A row holds, for its subcommand:
 *  - its class (read-only, read or write by form, local mutation, push …);
 *  - its read-only forms (the unbound agents' allowlist): `reads`, or the
 *    class when there is none (SC_READ: every form; the rest: none);
 *  - the snapshot decision, an allowlist (PRODUCT.md §5, "the net has no
 *    gaps"): by default every form that is not one of the row's reads may
 *    destroy unsaved work and is snapshotted; `snap` narrows that to every
 *    form but the `safe` ones, or, for a subcommand known to touch no
 *    work tree, index or ref content that only a snapshot could bring
 *    back, to none — each such row says why;
 *  - its ref effects: what it may create, move or delete, as full ref
 *    names after git's DWIM of short names (`heads/x`, `tags/x`,
 *    `remotes/x`, a bare name), judged in one place (git/refs-judge.c);
 *  - its deny checks for a bound agent in its own repository, with their
 *    messages.
 * Every function of a row reads the one parse of the command line
 * (git/argv.h) and nothing else.
 *
 * A row may also hold checks for every agent's command wherever it runs
 * (clean -i), the words a routed command gets beside the agent's (clean's
 * exclusion of the session marker) and config it runs with.
 *
 * What holds for every subcommand (an output path, a program named on
 * the command line, another agent's snapshot named or listed) is judged
 * before the row, in git/rules.c.
 */
#include "base/common.h"
#include "git/argv.h"
#include "git/classify.h"

struct verdict;
struct policy_input;
struct ref_effects;

enum rule_snap {
	SNAP_WRITES = 0, /* the default: every form but the row's reads */
	SNAP_FORMS,	 /* every form but those `safe` names (and reads) */
	SNAP_NEVER,	 /* known safe: no form destroys unsaved work */
};

struct rule {
	const char *sub;
	enum sub_class cls;
	bool (*reads)(const struct git_argv *ga);
	enum rule_snap snap;
	bool (*safe)(const struct git_argv *ga);
	bool (*quarantine)(const struct git_argv *ga); /* clean -x/-X */
	void (*refs)(const struct git_argv *ga, struct ref_effects *fx);
	const char *refs_hint; /* the way out a protected-ref deny adds */
	bool (*check)(struct verdict *v, const struct policy_input *in);
	/* deny checks for every agent's command, wherever it runs */
	bool (*deny_any)(struct verdict *v, const struct policy_input *in);
	/* … and for a bound agent's, whatever repository it acts on */
	bool (*deny_bound)(struct verdict *v, const struct policy_input *in);
	/* words a routed command gets beside the agent's (clean's marker
	 * exclusion); true when there are */
	bool (*route_words)(const struct git_argv *ga, struct git_insert *ins);
	/* config an agent's command runs with (`-c <run_config>`), or NULL */
	const char *(*run_config)(const struct git_argv *ga);
	/* it can stop in a conflict: the shim runs it as a child, then
	 * explains how to resolve and continue (reference §3.10) */
	bool conflicts;
};

/* The row of `sub`; a row of class SC_UNKNOWN for a subcommand git does
 * not have (an external command or an alias), never NULL. */
const struct rule *rule_for(const char *sub);

/* Whether ga's form only reads, by its row (the class when it has no
 * `reads`). */
bool rule_reads(const struct rule *r, const struct git_argv *ga);

/* The snapshot slug when ga's form may destroy unsaved work (the
 * subcommand's name), else NULL; *quarantine for clean -x/-X. */
const char *rule_snapshot(const struct rule *r, const struct git_argv *ga,
			  bool *quarantine);

/*
 * A bound agent's command in its own repository, by its row: its ref
 * effects judged (protected branches, refs/agentic-git/), then its deny
 * checks. True when `v` now denies it.
 */
bool rule_check(const struct rule *r, struct verdict *v,
		const struct policy_input *in);

/* -c, --config-env and the environment's config, for any agent's
 * command (git/rules-config.c); `read_only`: the form only reads. */
bool config_carried_denied(struct verdict *v, const struct policy_input *in,
			   bool read_only);

#endif
