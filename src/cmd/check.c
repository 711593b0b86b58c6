/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `agentic-git check [--json] -- <git argv…>`: what the shim would do with
 * this command here and now, executing nothing (the push guards' read-only
 * git queries aside). Exit 0 when it would run, 1 when it would be denied.
 */
#include "base/common.h"
#include <stdlib.h>
#include <string.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/strbuf.h"
#include "cmd/argtable.h"
#include "cmd/optsets.h"
#include "cmd/cmd.h"
#include "cmd/denymsg.h"
#include "git/argv.h"
#include "git/facts.h"
#include "git/policy.h"
#include "git/pushguard.h"
#include "git/pushspec.h"
#include "git/realgit.h"

static const char usage[] =
	"usage: agentic-git check [--json] -- <git arguments…>\n\n"
	"Show the shim's verdict for a git command in the current directory and\n"
	"environment (AGENTIC_GIT_AGENT, AGENTIC_GIT_HOME, …) without running it:\n"
	"pass (runs as given), route (runs inside the bound worktree) or deny (with\n"
	"the message the agent would see). Exits 0 when the command would run and\n"
	"1 when it would be denied.\n\n"
	"  --json   print one JSON object instead of text\n";

static void print_json(const struct verdict *v, const struct shim_facts *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "{\"verdict\":");
	strbuf_add_json_str(&sb, verdict_kind_str(v->kind));
	strbuf_addstr(&sb, ",\"subcommand\":");
	strbuf_add_json_str(&sb, v->sub);
	strbuf_addstr(&sb, ",\"binding\":");
	strbuf_add_json_str(&sb, f->bind.state == BS_BOUND ? "bound"
				 : f->bind.state == BS_UNBOUND ? "unbound"
							       : "no-agent");
	if (v->kind == V_DENY) {
		strbuf_addstr(&sb, ",\"event\":");
		strbuf_add_json_str(&sb, v->event ? v->event : "");
		strbuf_addstr(&sb, ",\"reason\":");
		strbuf_add_json_str(&sb, v->reason.buf);
	} else {
		strbuf_addstr(&sb, ",\"args\":[");
		for (size_t i = 0; i < v->args.nr; i++) {
			if (i)
				strbuf_addch(&sb, ',');
			strbuf_add_json_str(&sb, v->args.v[i]);
		}
		strbuf_addstr(&sb, "],\"snapshot\":");
		if (v->snapshot_slug)
			strbuf_add_json_str(&sb, v->snapshot_slug);
		else
			strbuf_addstr(&sb, "null");
	}
	strbuf_addstr(&sb, "}\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

static void print_text(const struct verdict *v, const struct shim_facts *f)
{
	printf("verdict: %s\n", verdict_kind_str(v->kind));
	printf("subcommand: %s\n", *v->sub ? v->sub : "(none)");
	printf("binding: %s\n", f->bind.state == BS_BOUND ? "bound"
				: f->bind.state == BS_UNBOUND
					? (f->bind.why_unbound ? f->bind.why_unbound : "unbound")
					: "no agent");
	if (v->kind == V_DENY) {
		printf("event: %s\n", v->event && *v->event ? v->event : "(none)");
		printf("message:\n");
		deny_print(stdout, v, f);
		return;
	}
	if (v->why.len)
		printf("why: %s\n", v->why.buf);
	printf("exec: git");
	for (size_t i = 0; i < v->args.nr; i++)
		printf(" %s", v->args.v[i]);
	printf("\n");
	if (v->snapshot_slug)
		printf("snapshot: before '%s'%s\n", v->snapshot_slug,
		       v->quarantine ? " (ignored files quarantined)" : "");
	if (v->audit_bypass)
		printf("audit: bypass_mutating_op\n");
}

const struct cmd_optset check_optsets[] = {
	{ NULL, argtable_json_only, 0 },
	{ NULL, NULL, 0 },
};

static const struct argtable check_table = {
	.cmd = "check",
	.hint = "the git command goes after '--'",
	.specs = argtable_json_only,
};

int cmd_check(int argc, const char **argv)
{
	bool json = false;
	struct argres r;
	int i;
	struct git_argv ga;
	struct shim_facts f;
	struct policy_input in;
	struct verdict v;
	char *real_git;
	int rc;

	if (cmd_wants_help(argc, argv, usage))
		return 0;
	if (argtable_parse_table(&check_table, argc, argv, &json, &r) < 0)
		return AG_EXIT_USAGE;
	if (!r.dashdash) {
		error("check: missing '--' before the git command");
		return AG_EXIT_USAGE;
	}
	i = r.rest;
	/*
	 * The home every other command uses when AGENTIC_GIT_HOME is unset
	 * (~/.agentic-git): the shim itself never guesses one, but the
	 * operator asking what it would do in a session means that home.
	 */
	if (!*ag_getenv_str(AGE_HOME)) {
		char *home = ag_home_dir();
		if (home)
			setenv(ag_env_primary(AGE_HOME), home, 1);
		free(home);
	}
	real_git = realgit_locate(ag_getenv_str(AGE_HOME));
	git_argv_parse(&ga, argv + i, (size_t)(argc - i));
	facts_gather(&f, &ga, real_git);
	in = facts_input(&f, &ga);
	verdict_init(&v);
	policy_decide(&in, &v);
	if (v.kind != V_DENY && v.push_guards && real_git)
		push_guards_verdict(real_git, &in, &v);
	if (json)
		print_json(&v, &f);
	else
		print_text(&v, &f);
	rc = v.kind == V_DENY ? AG_EXIT_DENY : 0;
	verdict_release(&v);
	facts_release(&f);
	git_argv_release(&ga);
	free(real_git);
	return rc;
}
