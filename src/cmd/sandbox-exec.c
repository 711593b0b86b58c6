/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git sandbox exec (internal): the Landlock backend's helper. The
 * planner makes the agent's argv start with
 *   agentic-git sandbox exec --policy P --ro D… --rw D… --dev F…
 *                            --net|--no-net -- <argv…>
 * and this confines the process in the order of sandbox-landlock.h
 * (no_new_privs → drop caps → Landlock → seccomp) and execs argv. Any
 * failure exits SANDBOX_EXIT_SETUP before the command runs: never half
 * confined. Runs with the agent's exact environment, which it passes on.
 */
#include "base/common.h"
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "agents/sandbox-landlock.h"
#include "agents/sandbox.h"
#include "base/die.h"
#include "cmd/sandbox-int.h"

extern char **environ;

static AG_NORETURN void setup_failed(const char *step, const char *what)
{
	die_code(SANDBOX_EXIT_SETUP, "sandbox exec: %s%s%s failed: %s; the command was not run",
		 step, what ? " " : "", what ? what : "", strerror(errno));
}

static void confine(const struct landlock_rules *r)
{
	const char *what = NULL;
	int abi = 0;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		setup_failed("no_new_privs", NULL);
	if (sandbox_drop_caps() < 0)
		setup_failed("dropping capabilities", NULL);
	if (landlock_apply(r, &abi, &what) < 0)
		setup_failed("landlock", what);
	if (sandbox_seccomp_apply(r->no_net) < 0)
		setup_failed("seccomp", NULL);
}

struct exec_opts {
	const char *policy;
	struct strvec ro, rw, dev;
	bool net, no_net;
};

#define ARGT_STRUCT struct exec_opts
static const struct argspec exec_specs[] = {
	OPT_REQUIRED("policy", policy),
	OPT_LIST(ro),
	OPT_LIST(rw),
	OPT_LIST(dev),
	OPT_FLAG(net),
	OPT_AS("no-net", ARG_FLAG, no_net),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

static const struct argtable exec_table =
	SANDBOX_HELPER_TABLE("exec", exec_specs);

int cmd_sandbox_exec(int argc, const char **argv)
{
	struct exec_opts o = { .ro = STRVEC_INIT,
			       .rw = STRVEC_INIT,
			       .dev = STRVEC_INIT };
	struct landlock_rules r = { 0 };
	enum sandbox_policy p;
	struct argres res;
	int idx = sandbox_cli_parse(&exec_table, argc, argv, &o, &res);

	if (idx >= argc || argv[idx][0] != '/')
		die_code(AG_EXIT_USAGE, "sandbox exec: internal helper; needs '-- /absolute/command' (see docs/sandbox.md)");
	/* fs+api is bwrap's alone: Landlock cannot confine addresses */
	if (!o.policy || sandbox_policy_parse(o.policy, &p) < 0 ||
	    p == SANDBOX_NONE || p == SANDBOX_FS_API || o.net == o.no_net ||
	    o.no_net != (p == SANDBOX_FS_NO_NET))
		die_code(
			AG_EXIT_USAGE,
			"sandbox exec: --policy fs-only needs --net, fs+no-net needs --no-net (fs+api is not the landlock helper's)");
	for (size_t i = 0; i < o.ro.nr + o.rw.nr; i++) {
		const char *x = i < o.ro.nr ? o.ro.v[i] : o.rw.v[i - o.ro.nr];
		if (!sandbox_path_ok(x))
			die_code(AG_EXIT_USAGE, "sandbox exec: '%s' must be an absolute, normalised path", x);
	}
	r.ro = o.ro.v;
	r.ro_nr = o.ro.nr;
	r.rw = o.rw.v;
	r.rw_nr = o.rw.nr;
	r.dev = o.dev.v;
	r.dev_nr = o.dev.nr;
	r.no_net = o.no_net;
	confine(&r);
	execve(argv[idx], (char *const *)argv + idx, environ);
	die_code(AG_EXIT_EXEC, "sandbox exec: cannot run '%s': %s", argv[idx],
		 strerror(errno));
}
