/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Classification of git command lines. Pure: no I/O.
 *
 * Invariants:
 *  1. A subcommand's class is its row's in the policy table (git/rules.c).
 *  2. git_form_read_only() is an allowlist: a form is read-only only when
 *     every argument is understood to be a read; anything unrecognised is a
 *     write.
 *  3. Checkout analysis fails closed: a token of unknown nature is treated
 *     as a branch, never as a path.
 */
#include "base/common.h"
#include <string.h>
#include "base/strbuf.h"
#include "git/classify.h"
#include "git/optable.h"
#include "git/outpaths.h"
#include "git/rules.h"

enum sub_class git_sub_class(const char *sub)
{
	return sub ? rule_for(sub)->cls : SC_READ;
}

bool git_word_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/*
 * A form that writes a file wherever it is told (`archive -o`,
 * `format-patch -o`, `diff --output=<file>`, `mailinfo <msg> <patch>`;
 * git/outpaths.h) is not a read. Found by the invariant fuzzer: `archive
 * -o <operator's file>` overwrote uncommitted work.
 */
static bool writes_file(const struct git_argv *ga)
{
	struct git_outs outs;

	return git_output_paths(ga, &outs) > 0;
}

bool git_read_whatever_spelling(const struct git_argv *ga)
{
	const struct rule *r = ga->sub ? rule_for(ga->sub) : NULL;

	/* a read whose row names its read-only forms is one a flag decides;
	 * so is one with an output path (format-patch without --stdout) */
	return r && r->cls == SC_READ && !r->reads && git_form_read_only(ga);
}

bool git_form_read_only(const struct git_argv *ga)
{
	const char *sub = ga->sub;

	if (!sub)
		return true;
	if (writes_file(ga))
		return false; /* `stash show --output=<file>` too */
	return rule_reads(rule_for(sub), ga);
}

const char *git_destructive_slug(const struct git_argv *ga, bool *quarantine)
{
	const char *sub = ga->sub;

	*quarantine = false;
	if (!sub)
		return NULL;
	/* a file written where it is told may be the agent's unsaved work,
	 * whatever else the form does (invariant fuzzer, seed 33: `read-tree
	 * --index-output README.md` overwrote it with no snapshot) */
	if (writes_file(ga))
		return sub;
	return rule_snapshot(rule_for(sub), ga, quarantine);
}

bool git_conflict_capable(const char *sub)
{
	return sub && rule_for(sub)->conflicts;
}
