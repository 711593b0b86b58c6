/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SANDBOX_LANDLOCK_H
#define AG_SANDBOX_LANDLOCK_H

/**
 * The Landlock + seccomp backend, for hosts where user namespaces (and so
 * bubblewrap) are unavailable.
 *
 * Planning (pure): landlock_build() makes the command run through our own
 * binary, `agentic-git sandbox exec --policy P --ro D… --rw D… --dev F…
 * --net|--no-net -- argv…`, with the exact child env (plus TMPDIR pointing
 * at the private tmp dir, if any).
 *
 * Run time (the helper, in this order, sandbox.h invariants 1 and 5):
 *   prctl(PR_SET_NO_NEW_PRIVS) → sandbox_drop_caps() → landlock_apply()
 *   → sandbox_seccomp_apply() → execve.
 * Each step returns 0 or -1 with errno set and prints nothing; the helper
 * (cmd/sandbox-exec.c) reports and exits 126 on any failure, never running
 * the command half-confined.
 *
 * Invariants:
 *  1. Every filesystem right the running kernel's ABI knows is handled, so
 *     anything not granted by a rule is denied (read, write, exec, refer,
 *     truncate, device ioctl).
 *  2. --no-net MUST deny TCP through Landlock (ABI >= 4) AND deny every
 *     socket family but AF_UNIX (and io_uring) through seccomp, because
 *     Landlock does not cover UDP, raw or netlink sockets.
 *  3. TIOCSTI and TIOCLINUX ioctls are always denied (terminal injection).
 *  4. Capabilities are dropped (bounding set, ambient, effective, permitted,
 *     inheritable) so root gains nothing back at execve.
 */
#include "agents/sandbox.h"

void landlock_build(const struct sandbox_request *rq,
		    const struct sandbox_caps *caps, struct sandbox_plan *plan);

/* The running kernel's Landlock ABI version, or 0 (errno set). */
int landlock_abi_version(void);

struct landlock_rules {
	const char *const *ro; /* read + execute */
	size_t ro_nr;
	const char *const *rw; /* everything */
	size_t rw_nr;
	const char *const *dev; /* read/write/ioctl device files; missing ones
				   are skipped */
	size_t dev_nr;
	bool no_net;
};

/*
 * Builds the ruleset for the running ABI and restricts the calling thread.
 * On success stores the ABI used in *abi. Fails (errno set, and `what`
 * names the path or step) rather than applying a partial ruleset.
 */
int landlock_apply(const struct landlock_rules *r, int *abi,
		   const char **what);

/* Installs the seccomp filter of invariants 2 and 3. */
int sandbox_seccomp_apply(bool no_net);
/* Invariant 4. */
int sandbox_drop_caps(void);

/* Device files granted to the Landlock backend. */
#define SANDBOX_LANDLOCK_DEVS                                                  \
	{ "/dev/null", "/dev/zero", "/dev/full", "/dev/random",               \
	  "/dev/urandom", "/dev/tty" }

#endif
