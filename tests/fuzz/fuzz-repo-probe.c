/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the repository probe's config reader (git/repo-probe.h): the
 * bytes of a repository's config, which an agent can write. Invariants:
 *  1. never crashes, reads out of bounds or leaks (the buffer is an
 *     exact-size heap copy, no NUL after it);
 *  2. only the probe's own flags are set, and the version is only above 1
 *     with PROBE_FORMAT_NEWER;
 *  3. fail towards git: with PROBE_ODD, or an unknown extension, or a
 *     newer format, no query says "ours";
 *  4. the same bytes give the same probe (no hidden state).
 */
#include <stdlib.h>
#include <string.h>
#include "git/repo-probe.h"
#include "fuzz.h"

#define ALL_FLAGS                                                    \
	(PROBE_ODD | PROBE_FORMAT_NEWER | PROBE_UNKNOWN_EXT |        \
	 PROBE_REFS_OTHER | PROBE_SPLIT_INDEX | PROBE_SPARSE_INDEX | \
	 PROBE_SHARED | PROBE_WORKTREE_CONFIG | PROBE_REFLOG_ALWAYS)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct repo_probe a = { 0 }, b = { 0 };

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	repo_probe_config(&a, buf, size, PROBE_LEVEL_REPO, NULL);
	repo_probe_config(&b, buf, size, PROBE_LEVEL_REPO, NULL);
	FUZZ_CHECK(!(a.flags & ~(unsigned)ALL_FLAGS), "flags 0x%x", a.flags);
	FUZZ_CHECK(a.version <= 1 || (a.flags & PROBE_FORMAT_NEWER) ||
			   (a.flags & PROBE_ODD),
		   "version %u without PROBE_FORMAT_NEWER", a.version);
	if (a.flags & (PROBE_ODD | PROBE_UNKNOWN_EXT | PROBE_FORMAT_NEWER))
		FUZZ_CHECK(!repo_probe_refs_ours(&a) &&
				   !repo_probe_index_ours(&a) &&
				   !repo_probe_objects_ours(&a) &&
				   !repo_probe_ref_writes_ours(&a),
			   "a doubtful config (0x%x) is ours", a.flags);
	FUZZ_CHECK(!memcmp(&a, &b, sizeof(a)), "two parses differ");
	free(buf);
	return 0;
}
