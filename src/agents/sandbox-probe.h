/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SANDBOX_PROBE_H
#define AG_SANDBOX_PROBE_H

/**
 * What this host can sandbox with (PRODUCT.md §8 `sandbox probe`).
 *
 * sandbox_probe() runs the checks once per process and returns a pointer
 * to the cached result (owned by this module, never freed):
 *  - bwrap: the pinned binary (the first executable of /usr/bin/bwrap,
 *    /usr/local/bin/bwrap, /bin/bwrap; never a PATH lookup) and whether
 *    `bwrap --unshare-all --die-with-parent --new-session --ro-bind / /
 *    -- /bin/true` exits 0 within 10 seconds;
 *  - userns: whether a child can unshare(CLONE_NEWUSER);
 *  - Landlock: the ABI version from landlock_create_ruleset(VERSION);
 *  - seccomp: whether filters with SECCOMP_RET_ERRNO are supported;
 *  - which system directories exist and which are symlinks.
 *
 * For tests only: AGENTIC_GIT_SANDBOX_UNAVAILABLE, a comma-separated list
 * of bwrap, landlock, seccomp, userns, makes the probe report those as
 * missing (it can only take capabilities away, never add them); userns
 * also makes bwrap unusable, as on a host without user namespaces.
 *
 * Prints nothing; failures are recorded in the caps' *_why fields.
 */
#include "agents/sandbox.h"

const struct sandbox_caps *sandbox_probe(void);
/*
 * Only what planning for this backend preference needs: with LANDLOCK,
 * bwrap's test run is skipped (bwrap_works stays false) and userns is not
 * probed by either. Same cache.
 */
const struct sandbox_caps *sandbox_probe_for(enum sandbox_backend pref);
/* The same checks, uncached, into *caps. */
void sandbox_probe_fill(struct sandbox_caps *caps);

#endif
