/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git report [-o FILE]: the fleet page (fleet/report.h), one
 * self-contained HTML file for the operator to open in a browser.
 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "git/gitcmd.h"
#include "git/realgit.h"
#include "fleet/report.h"

#define REPORT_DEFAULT_FILE "fleet-report.html"

static const char usage_text[] =
	"usage: agentic-git report [-o FILE]\n"
	"\n"
	"Write the fleet page: one self-contained HTML file (no network, no\n"
	"script) with the sessions and their state, each agent's commits on no\n"
	"other branch and their diffstat, the denies with their reasons, the\n"
	"snapshots with the command that restores each, the dispatch runs, and a\n"
	"timeline of the audit log. Every string an agent could have written is\n"
	"escaped; git reads only refs and objects of the operator's repositories.\n"
	"\n"
	"  -o, --output FILE   where to write it (default ./" REPORT_DEFAULT_FILE
	"; '-'\n"
	"                      for stdout); the file is replaced atomically\n";

struct report_cli {
	const char *output;
};

static const struct argspec report_specs[] = {
	ARGSPEC_AT("output", 'o', ARG_VALUE, struct report_cli, output, 0,
		   ARGF_NONEMPTY),
	ARGSPEC_END,
};

const struct cmd_optset report_optsets[] = { { NULL, report_specs, 0 },
					     { NULL, NULL, 0 } };

static const struct argtable report_table = { .cmd = "report",
					      .specs = report_specs,
					      .flags = ARGT_NO_REST };

int cmd_report(int argc, const char **argv)
{
	struct report_cli o = { REPORT_DEFAULT_FILE };
	struct report r = REPORT_INIT;
	struct strbuf page = STRBUF_INIT;
	struct argres res;
	char *home, *git;

	if (cmd_wants_help(argc, argv, usage_text))
		return 0;
	if (argtable_parse_table(&report_table, argc, argv, &o, &res) < 0)
		return AG_EXIT_USAGE;
	gitcmd_trust_set(GIT_AGENT_REPO); /* agents' branches and worktrees */
	home = ag_home_dir();
	if (!home)
		die("report: cannot find the home: set AGENTIC_GIT_HOME");
	git = realgit_locate(home);
	if (!git)
		die("report: cannot find the real git; set AGENTIC_GIT_REAL_GIT");
	if (report_collect(home, git, &r) < 0)
		die_errno("report: cannot read '%s/runtime'", home);
	report_render_html(&r, &page);
	if (!strcmp(o.output, "-")) {
		if (fwrite(page.buf, 1, page.len, stdout) != page.len ||
		    fflush(stdout))
			die_errno("report: cannot write the page to stdout");
	} else {
		if (write_file_atomic(o.output, page.buf, page.len, 0600) < 0)
			die_errno("report: cannot write '%s'", o.output);
		fprintf(stderr,
			"report: wrote %s (%zu sessions, %lu denies, %zu snapshots)\n",
			o.output, r.agents_nr, r.denies.seen, r.snaps_total);
	}
	report_release(&r);
	strbuf_release(&page);
	free(home);
	free(git);
	return 0;
}
