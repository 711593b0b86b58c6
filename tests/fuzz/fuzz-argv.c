/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the shim's pure decision path: git_argv_parse, git_config_split,
 * git_form_read_only, git_destructive_slug, git_checkout_analyse,
 * push_spec_parse/check/sources and policy_decide.
 *
 * Input: 5 bytes of facts (environment, binding, repository, depth, token
 * facts seed), then the git argv (without argv[0]) as NUL-separated strings.
 * Invariants:
 *  1. a verdict for an unbound agent (identity set, no bypass) is never a
 *     route, and a pass only for a read-only form (or --version/--help and
 *     git's own nested helper calls);
 *  2. a route always starts with `-C <worktree>` and carries no other -C,
 *     --git-dir or --work-tree before the subcommand;
 *  3. a bound agent with a worktree never gets a plain pass on TGT_SAME;
 *  4. a -c of a key that runs code (non-inert value, and on a read-only
 *     form not a value that only switches it off), or a --config-env of
 *     such a key (whatever the variable), is denied for every agent that
 *     has not bypassed;
 *  5. a deny always carries a reason and an event.
 */
#include <string.h>
#include "agentic-git/core.h"
#include "base/strbuf.h"
#include "git/argv.h"
#include "git/classify.h"
#include "git/policy.h"
#include "git/pushspec.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */
#include "fuzz.h"

#define WT "/wt/agents/ag1"
#define MAX_ARGS 256

static bool prot_cb(const char *branch, void *ctx)
{
	return ag_protected_match(ctx, branch);
}

static void exercise_parts(const struct git_argv *ga, const unsigned *facts,
			   const struct ag_protected *prot, const char *cur)
{
	bool q = false;
	const char *slug = git_destructive_slug(ga, &q);
	struct co_analysis co = { CO_NONE, NULL, false };
	char key[256];

	(void)git_form_read_only(ga);
	FUZZ_CHECK(!q || slug, "quarantine without a snapshot slug");
	if (git_sub_class(ga->sub) == SC_CHECKOUT) {
		git_checkout_analyse(ga, facts, &co);
		FUZZ_CHECK(co.kind != CO_BRANCH || co.target,
			   "branch move without a target");
	}
	/* a cluster is one word and several options (`-fdx`): options are
	 * counted by the word they are spelled in */
	FUZZ_CHECK(ga->npos <= ga->words_.argc && ga->pos_dd <= ga->npos,
		   "positionals");
	for (size_t i = 0; i < ga->nopts; i++)
		FUZZ_CHECK(
			ga->opts[i].word < ga->words_.argc &&
				(!i ||
				 ga->opts[i - 1].word <= ga->opts[i].word),
			"an option outside the command line, or out of order");
	for (size_t i = 0; i < ga->nconfigs; i++) {
		const char *val = git_config_split(ga->configs[i], key, sizeof(key));
		(void)git_config_key_dangerous(key);
		(void)git_config_value_inert(key, val);
	}
	if (ga->sub && !strcmp(ga->sub, "push")) {
		struct push_spec ps;
		struct strbuf why = STRBUF_INIT;

		push_spec_parse(ga, &ps);
		(void)push_spec_check(&ps, "feat/one", cur, prot_cb, (void *)prot, &why);
		FUZZ_CHECK(ps.nrefspecs <= ga->npos, "push refspecs");
		strbuf_release(&why);
		push_spec_release(&ps);
	}
}

static bool dangerous_config(const struct git_argv *ga)
{
	char key[256];

	for (size_t i = 0; i < ga->nconfigs; i++) {
		const char *val = git_config_split(ga->configs[i], key, sizeof(key));
		if (git_config_key_dangerous(key) && !git_config_value_inert(key, val) &&
		    !(git_form_read_only(ga) && git_config_value_disables(key, val)))
			return true;
	}
	/* --config-env=<key>=<variable>: the value is unseen, never inert */
	for (size_t i = 0; i < ga->nconfig_envs; i++) {
		(void)git_config_split(ga->config_envs[i], key, sizeof(key));
		if (git_config_key_dangerous(key))
			return true;
	}
	return false;
}

static void check_verdict(const struct policy_input *in, const struct verdict *v)
{
	const struct git_argv *ga = in->ga;
	bool agent = *in->env->agent, bypass = in->env->bypass;

	if (v->kind == V_DENY) {
		FUZZ_CHECK(v->event && v->reason.len, "deny without event or reason");
		return;
	}
	if (agent && !bypass && in->bind->state != BS_BOUND) {
		FUZZ_CHECK(v->kind != V_ROUTE, "unbound agent routed");
		FUZZ_CHECK(git_form_read_only(ga) || ga->info_only ||
				   git_sub_class(ga->sub) == SC_HELPER,
			   "unbound agent passed a mutating form '%s'",
			   ga->sub ? ga->sub : "");
	}
	if (agent && !bypass && in->bind->state == BS_BOUND &&
	    in->bind->worktree && in->repo->target == TGT_SAME && ga->sub &&
	    !ga->info_only && git_sub_class(ga->sub) != SC_HELPER)
		FUZZ_CHECK(v->kind != V_PASS, "bound agent passed on its own repository");
	if (agent && !bypass)
		FUZZ_CHECK(!dangerous_config(ga) || git_sub_class(ga->sub) == SC_HELPER,
			   "dangerous -c allowed");
	if (v->kind == V_ROUTE) {
		/* what route() added to the agent's own arguments: only the
		 * session-marker pattern of a clean, `-e /<marker>` (under -X
		 * `-e !/<marker>`), where the clean's options end */
		size_t own = ga->words_.argc - ga->words_.sub_idx;
		size_t sub_at = v->sub_args_at ? v->sub_args_at - 1 : v->args.nr - own;
		size_t extra = v->args.nr - sub_at - own;
		FUZZ_CHECK(sub_at + own <= v->args.nr, "route lost arguments");
		if (extra) {
			/* git's own tokens follow the subcommand, not the
			 * policy's split ones */
			const char *const *r = v->args.v + sub_at + 1;
			const char *const *a =
				ga->words_.argv + ga->words_.sub_idx + 1;
			size_t n = own - 1, end = ga->opts_end;
			FUZZ_CHECK(ga->sub && !strcmp(ga->sub, "clean") &&
					   extra == 2 &&
					   !strcmp(r[end], "-e") &&
					   (!strcmp(r[end + 1],
						    "/" SESSION_MARKER_NAME) ||
					    !strcmp(r[end + 1],
						    "!/" SESSION_MARKER_NAME)),
				   "route added %zu argument(s) to '%s'", extra,
				   ga->sub ? ga->sub : "");
			for (size_t i = 0; i < n; i++)
				FUZZ_CHECK(
					!strcmp(r[i < end ? i : i + 2], a[i]),
					"route changed argument %zu of clean",
					i);
		}
		FUZZ_CHECK(v->args.nr >= 2 && !strcmp(v->args.v[0], "-C") &&
				   !strncmp(v->args.v[1], WT, strlen(WT)),
			   "route does not start with -C <worktree>");
		struct git_argv rg;
		for (size_t i = 2; i < sub_at; i++) {
			const char *a = v->args.v[i];
			FUZZ_CHECK(strcmp(a, "-C") && strcmp(a, "--git-dir") &&
					   strcmp(a, "--work-tree") &&
					   strncmp(a, "--git-dir=", 10) &&
					   strncmp(a, "--work-tree=", 12),
				   "route keeps a target override '%s'", a);
			if (git_global_takes_value(a))
				i++; /* its value, whatever it looks like */
		}
		/* git must see the subcommand and arguments the policy judged */
		git_argv_parse(&rg, v->args.v + 2, v->args.nr - 2);
		FUZZ_CHECK((!rg.sub && !ga->sub) ||
				   (rg.sub && ga->sub &&
				    !strcmp(rg.sub, ga->sub) &&
				    rg.words_.argc - rg.words_.sub_idx ==
					    ga->words_.argc -
						    ga->words_.sub_idx + extra),
			   "route changes the subcommand from '%s' to '%s'",
			   ga->sub ? ga->sub : "", rg.sub ? rg.sub : "");
		git_argv_release(&rg);
	}
}

static size_t split_argv(const char *buf, size_t len, const char **argv,
			 char **copy)
{
	size_t n = 0;
	char *p, *end;

	*copy = malloc(len + 1);
	memcpy(*copy, buf, len);
	(*copy)[len] = '\0';
	p = *copy;
	end = *copy + len;
	while (p < end && n < MAX_ARGS) {
		argv[n++] = p;
		p += strlen(p) + 1;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[MAX_ARGS];
	unsigned facts[MAX_ARGS];
	char *copy;
	size_t argc;
	struct git_argv ga;
	struct ag_protected prot;
	struct verdict v;
	uint8_t f0, f1, f2, f3, f4;

	if (size < 5)
		return 0;
	f0 = data[0], f1 = data[1], f2 = data[2], f3 = data[3], f4 = data[4];
	argc = split_argv((const char *)data + 5, size - 5, argv, &copy);
	for (size_t i = 0; i < argc; i++)
		facts[i] = (unsigned)((f4 * (i + 1) + strlen(argv[i])) & 0x1f);

	struct policy_env env = {
		.agent = (f0 & 1) ? "ag1" : "",
		.agent_valid = f0 & 2,
		.home = "/home/u/.agentic-git",
		.bypass = f0 & 4,
		.bypass_layer = "env",
		.depth = f3 & 3,
		.allow_canonical_mutate = f0 & 8,
		.env_repo_override = f0 & 16,
		.env_index_override = f0 & 32,
		.snapshots = (int)((f0 >> 6) % 3) - 1,
	};
	struct policy_binding bind = {
		.state = (enum bind_state)(f1 % 3),
		.why_unbound = "no binding",
		.task_id = "task-1",
		.branch = (f1 & 8) ? "feat/one" : NULL,
		.worktree = (f1 & 4) ? WT : NULL,
	};
	struct policy_repo repo = {
		.target = (enum target_kind)(f2 & 3),
		.target_rel = (f2 & 4) ? "sub/dir" : "",
		.rel_exists_in_wt = f2 & 8,
		.sibling_agent = (f2 & 16) ? "ag2" : NULL,
		.sibling_path = (f2 & 16) ? "/wt/agents/ag2" : NULL,
		.canonical_rooted = f2 & 32,
		.wt_branch = (f2 & 64) ? "feat/one" : "main",
		.tok_facts = facts,
		.sub_is_external = f3 & 4,
	};

	ag_protected_init(&prot);
	ag_protected_add(&prot, "release/*");
	git_argv_parse(&ga, argv, argc);
	exercise_parts(&ga, facts, &prot, repo.wt_branch);

	struct policy_input in = {
		.ga = &ga, .env = &env, .bind = &bind, .repo = &repo,
		.protected = &prot, .policy_refused = f2 & 128,
	};
	verdict_init(&v);
	policy_decide(&in, &v);
	check_verdict(&in, &v);
	verdict_release(&v);
	git_argv_release(&ga);
	ag_protected_release(&prot);
	free(copy);
	return 0;
}
