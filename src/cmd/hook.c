/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git hook <name> …: the logic behind the session's hook stubs
 * (git/hooks.h). Hooks never block git: every path exits 0.
 *
 * Invariants:
 *  1. MUST add provenance trailers only from a binding whose signature
 *     verifies (ag_binding_load() == AG_BINDING_BOUND).
 *  2. MUST add them at most once per commit message (amend included).
 *  3. MUST journal every committed ref update, one event per ref.
 *  4. MUST exit 0 whatever happens.
 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "cmd/cmd.h"
#include "git/trailers.h"

#define MSG_MAX (4u << 20)
#define HOOK_LINE_MAX 4096

static const char usage_text[] =
	"usage: agentic-git hook <name> [<args>]\n\n"
	"Run by the hook stubs a session installs; always exits 0.\n\n"
	"  prepare-commit-msg <file> [<source> [<sha>]]\n"
	"      add the Agentic-* provenance trailers (verified binding only)\n"
	"  reference-transaction <state>\n"
	"      journal committed ref updates to fleet_events.jsonl\n";

static void add_trailers(const char *file, const struct ag_binding *b,
			 const char *agent)
{
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;
	struct trailer_vals v = { b->agent && *b->agent ? b->agent : agent,
				  b->task_id, b->branch, b->issued_at };

	if (read_file_bounded(file, MSG_MAX, RF_REGULAR, &msg) < 0) {
		warning("hook prepare-commit-msg: cannot read '%s': %s", file,
			strerror(errno));
	} else if (trailers_apply(msg.buf, msg.len, &v, &out) == 1 &&
		   write_file_atomic(file, out.buf, out.len, 0644) < 0) {
		warning("hook prepare-commit-msg: cannot write '%s': %s", file,
			strerror(errno));
	}
	strbuf_release(&msg);
	strbuf_release(&out);
}

static int prepare_commit_msg(int argc, const char **argv)
{
	const char *home = ag_getenv_str(AGE_HOME);
	const char *agent = ag_getenv_str(AGE_AGENT);
	struct ag_binding b = { 0 };
	enum ag_binding_state st;
	const char *why;

	if (argc < 2 || (argc > 2 && trailers_skip_source(argv[2])))
		return 0;
	if (!*home || !*agent || !ag_agent_name_valid(agent, &why))
		return 0;
	st = ag_binding_load(home, agent, &b);
	if (st == AG_BINDING_BOUND) /* invariant 1 */
		add_trailers(argv[1], &b, agent);
	else if (st != AG_BINDING_NONE && st != AG_BINDING_PARTIAL)
		warning("hook prepare-commit-msg: binding of '%s' not trusted (%s); no provenance trailers added",
			agent, ag_binding_state_str(st));
	ag_binding_release(&b);
	return 0;
}

/* The git subcommand of our parent (git runs the hook), or "". */
static void parent_subcommand(struct strbuf *out)
{
	static const char *const with_value[] = { "-C", "-c", "--git-dir",
						  "--work-tree", "--namespace",
						  "--config-env" };
	struct strbuf path = STRBUF_INIT, cmdline = STRBUF_INIT;
	const char *p, *end;
	bool skip_next = false, first = true;

	strbuf_addf(&path, "/proc/%ld/cmdline", (long)getppid());
	if (read_file_bounded(path.buf, 65536, 0, &cmdline) < 0)
		goto out;
	for (p = cmdline.buf, end = cmdline.buf + cmdline.len; p < end;
	     p += strlen(p) + 1) {
		if (first || skip_next) {
			first = skip_next = false;
			continue;
		}
		if (*p != '-') {
			strbuf_add(out, p, strnlen(p, 64));
			break;
		}
		for (size_t i = 0; i < ARRAY_SIZE(with_value); i++)
			if (!strcmp(p, with_value[i]))
				skip_next = true;
	}
out:
	strbuf_release(&path);
	strbuf_release(&cmdline);
}

static void journal_line(const char *line, const char *agent,
			 const char *sub, const char *worktree,
			 const char *home)
{
	char old[128], new[128];
	const char *sp1 = strchr(line, ' '), *sp2;
	struct event ev = EVENT_INIT("ref_update", agent, sub);

	if (!sp1 || !(sp2 = strchr(sp1 + 1, ' ')) ||
	    (size_t)(sp1 - line) >= sizeof(old) ||
	    (size_t)(sp2 - sp1 - 1) >= sizeof(new))
		return;
	snprintf(old, sizeof(old), "%.*s", (int)(sp1 - line), line);
	snprintf(new, sizeof(new), "%.*s", (int)(sp2 - sp1 - 1), sp1 + 1);
	event_add_str(&ev, "ref", sp2 + 1);
	event_add_str(&ev, "old", old);
	event_add_str(&ev, "new", new);
	event_add_str(&ev, "worktree", worktree);
	event_write(home, &ev); /* best effort: never blocks the update */
	event_release(&ev);
}

static int reference_transaction(int argc, const char **argv)
{
	const char *home = ag_getenv_str(AGE_HOME);
	const char *agent = ag_getenv_str(AGE_AGENT);
	const char *wt = getenv("GIT_WORK_TREE");
	bool journal = argc >= 2 && !strcmp(argv[1], "committed") && *home;
	struct strbuf sub = STRBUF_INIT;
	char cwd[4096];
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!wt || !*wt)
		wt = getcwd(cwd, sizeof(cwd)) ? cwd : "";
	if (journal)
		parent_subcommand(&sub);
	/* always drain stdin, so git never sees a broken pipe */
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (!journal || n > HOOK_LINE_MAX)
			continue;
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		journal_line(line, agent, sub.buf, wt, home);
	}
	free(line);
	strbuf_release(&sub);
	return 0;
}

int cmd_hook(int argc, const char **argv)
{
	if (cmd_wants_help(argc, argv, usage_text))
		return 0;
	if (argc >= 2 && !strcmp(argv[1], "prepare-commit-msg"))
		return prepare_commit_msg(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "reference-transaction"))
		return reference_transaction(argc - 1, argv + 1);
	/* invariant 4: an unknown hook must not break git either */
	warning("hook: unknown hook '%s' (ignored)", argc >= 2 ? argv[1] : "");
	return 0;
}
