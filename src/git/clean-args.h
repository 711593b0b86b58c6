/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CLEAN_ARGS_H
#define AG_CLEAN_ARGS_H

/**
 * Understanding a `git clean` command line well enough to ask git, in a dry
 * run, what it would delete (pure: no I/O). Both read clean's one parse
 * (git/argv.h), as git's clean reads its options.
 *
 * clean_dry_run_args() turns the arguments after `clean` into the
 * arguments of `clean -n` with the same selection: -i, -n/--dry-run,
 * --no-dry-run (it would make the dry run delete) and -q/--quiet are
 * dropped (also out of single-dash clusters such as -fdxn, which are split),
 * -f/--force (given twice, clean deletes nested repositories too), -d, -x,
 * -X, -e/--exclude <pattern> and the pathspecs are kept; from `--` or
 * `--end-of-options` on, everything is kept as it is. `out` receives the
 * new argv (without "clean"), `flags` the CLEAN_* bits of the options.
 * Returns 0, or -1 when an option that needs a value has none.
 *
 * unquote_c_path() undoes git's C-style path quoting ("a\tb", octal
 * escapes) as printed by `clean -n` with core.quotePath=false; a name that
 * does not start with '"' is copied as-is. Returns 0 or -1 on bad quoting.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

enum clean_flags {
	CLEAN_DIRS = 1 << 0,	     /* -d */
	CLEAN_IGNORED = 1 << 1,	     /* -x */
	CLEAN_ONLY_IGNORED = 1 << 2, /* -X */
	CLEAN_FORCE = 1 << 3,	     /* -f / --force */
	CLEAN_DRY_RUN = 1 << 4, /* -n / --dry-run, not undone by --no-dry-run */
	CLEAN_INTERACTIVE = 1 << 5, /* -i / --interactive */
};

struct git_argv;

int clean_dry_run_args(const char *const *args, struct strvec *out,
		       unsigned *flags);
/* The CLEAN_* bits of a clean command line's parse (the last of -n and
 * --no-dry-run decides; -f counts since the last --no-force). */
unsigned clean_flags_of(const struct git_argv *ga);
int unquote_c_path(const char *in, size_t len, struct strbuf *out);

#endif
