/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "base/eventlog.h"
#include "cmd/denymsg.h"

#define IND "           "

static void print_indented(FILE *out, const char *text)
{
	const char *nl;
	while ((nl = strchr(text, '\n'))) {
		fprintf(out, "%.*s\n" IND, (int)(nl - text), text);
		text = nl + 1;
	}
	fprintf(out, "%s\n", text);
}

static void unbound_remedy(FILE *out)
{
	fputs(IND "no active worktree binding exists for this agent, and this call is not\n"
	      IND "inside a guarded session. To get one, either:\n"
	      IND "  - launch via `agentic-git run --branch <branch> -- <cmd>` (standalone:\n"
	      IND "    provisions and binds a worktree), or\n"
	      IND "  - have your orchestrator bind this agent, then run git from inside\n"
	      IND "    the bound worktree.\n",
	      out);
}

/*
 * The bypass is named only where it would work: a session whose signed
 * binding says the operator did not allow it gets "ask the operator".
 */
static void bypass_lines(FILE *out, const struct shim_facts *f)
{
	if (f->env.bypass_refused)
		fputs(IND "AGENTIC_GIT_BYPASS* was set but is ignored: the operator did not allow a bypass in this session (recorded)\n",
		      out);
	if (f->bind.state == BS_BOUND && f->bind.bypass_denied) {
		fputs(IND "no bypass exists in this session. If this operation is really needed, stop and ask\n"
		      IND "the operator to do it (only the operator can allow a bypass: `agentic-git run --allow-bypass`).\n",
		      out);
		return;
	}
	fputs(IND "or bypass with one of:\n"
	      IND "  AGENTIC_GIT_BYPASS=1                 one-shot\n"
	      IND "  AGENTIC_GIT_BYPASS_AGENT=<name>      matches AGENTIC_GIT_AGENT\n"
	      IND "  AGENTIC_GIT_BYPASS_UNTIL=<epoch>     time-limited exemption (Unix seconds, not ISO)\n",
	      out);
}

void deny_print(FILE *out, const struct verdict *v, const struct shim_facts *f)
{
	const char *agent = f->env.agent;

	if (v->style == DS_SIBLING) {
		fprintf(out,
			"agentic-git: DENIED — agent '%s' cannot read from agent '%s'’s managed worktree '%s'. Cross-agent worktree reads are structurally refused to prevent fabricated target data. (#arch14)\n",
			agent, f->repo.sibling_agent ? f->repo.sibling_agent : "",
			f->repo.sibling_path ? f->repo.sibling_path : "");
		return;
	}
	if (v->style == DS_CANONICAL) {
		fprintf(out,
			"agentic-git: DENIED — agent '%s' must not bypass-%s in a canonical-rooted repo.\n"
			IND "a stray provision detaches or moves the operator's canonical HEAD (#2234).\n",
			agent, v->sub);
		unbound_remedy(out);
		fputs(IND "or, if you genuinely must: set AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1 for a one-shot (or ask lead).\n",
		      out);
		return;
	}
	fprintf(out, "agentic-git: ERROR git %s denied\n", *v->sub ? v->sub : "");
	fprintf(out, IND "agent=%s, reason: ", agent);
	print_indented(out, v->reason.buf);
	if (v->bound_remedy) {
		fprintf(out, IND "your assigned worktree is %s\n", f->bind.worktree);
		fprintf(out,
			IND "(branch '%s', task %s) — cd there and run git, no bypass needed\n",
			f->bind.branch ? f->bind.branch : "<unknown>",
			f->bind.task_id ? f->bind.task_id : "—");
	} else {
		unbound_remedy(out);
	}
	if (f->policy_refused)
		fprintf(out, IND "note: policy.toml was refused (%s): every branch counts as protected until it is fixed and re-signed\n",
			f->policy_err);
	bypass_lines(out, f);
}

void deny_record(const struct verdict *v, const struct shim_facts *f)
{
	struct event ev;

	if (v->style == DS_CANONICAL || !v->event || !*v->event)
		return;
	ev = (struct event)EVENT_INIT(v->event, f->env.agent, v->sub);
	event_add_null(&ev, "target_branch");
	event_add_str(&ev, "reason", v->reason.buf);
	if (f->env.bypass_refused)
		event_add_bool(&ev, "bypass_refused", true);
	event_write(f->env.home, &ev);
	event_release(&ev);
}
