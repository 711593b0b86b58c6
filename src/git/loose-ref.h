/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_LOOSE_REF_H
#define AG_LOOSE_REF_H

/**
 * Creating a new ref by writing its loose file, as git's files backend
 * does, without starting `git update-ref` (and its hooks): for snapshot
 * refs, which are created once and never moved.
 *
 * Invariants:
 *  1. Only creates: a ref that exists as a loose file is never replaced
 *     (the file is linked into place, which fails when the name exists).
 *  2. Only where the repository probe (repo-probe.h) says ref writes are
 *     ours: the files backend, the id's object format, no shared
 *     repository (git would adjust the modes of what it writes there);
 *     anything else, or any doubt about the layout, returns
 *     LOOSE_REF_UNSUPPORTED so the caller runs git instead.
 *  3. The ref name and object id are validated (refs/… by git's ref-name
 *     rules, base/refname.h; a hex id of 40 or 64 digits).
 *  4. The lock file `<ref>.lock` is taken with O_EXCL, like git, so a
 *     concurrent git writer of the same ref fails one of the two.
 */
#include "base/common.h"

enum loose_ref_result {
	LOOSE_REF_CREATED = 0,
	LOOSE_REF_EXISTS = 1,	   /* the name is taken (loose, or locked) */
	LOOSE_REF_UNSUPPORTED = 2, /* let git do it */
};

/* commondir: the repository's common git dir (absolute). */
enum loose_ref_result loose_ref_create(const char *commondir, const char *ref,
				       const char *oid);

#endif
