/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PACKED_REFS_H
#define AG_PACKED_REFS_H

/**
 * git's packed-refs file, read by one reader for every caller (repo.h,
 * refs-files.h). The caller has asked the repository probe first
 * (repo_probe_refs_ours(), git/repo-probe.h): this reads the file, it does
 * not judge whether refs are files at all.
 *
 *   struct packed_refs pr = PACKED_REFS_INIT;
 *   if (packed_refs_read(&pr, commondir, hexlen, cap) < 0)
 *           ask git;
 *   ref = packed_refs_find(&pr, "refs/heads/x");   // or walk pr.v[]
 *   packed_refs_release(&pr);
 *
 * Invariants:
 *  1. Fail towards git: anything but the lines git writes returns -1 and
 *     the caller MUST ask git — a first line starting with '#' that is not
 *     "# pack-refs with:", a '#' line after the first, a ref line that is
 *     not exactly <hexlen lower-case hex> SP <ref name> LF, a ref name
 *     git's rules refuse (base/refname.h, one level allowed, as git's
 *     packed backend checks), a '^' peeled line that does not follow a ref
 *     line or is not ^<hex> LF, an empty or unterminated line.
 *  2. A missing file is no packed refs (0, empty); a file larger than the
 *     caller's cap, a symlink or anything but a regular file, or one that
 *     cannot be read is -1 (read_file_bounded(): O_NOFOLLOW, bounded).
 *  3. The header's traits are recorded; unknown traits are ignored, as
 *     git ignores them. Nothing here relies on `sorted`.
 */
#include "base/common.h"
#include "base/strbuf.h"

enum packed_trait {
	PACKED_PEELED = 1 << 0,
	PACKED_FULLY_PEELED = 1 << 1,
	PACKED_SORTED = 1 << 2,
};

struct packed_ref {
	const char *oid;    /* hexlen lower-case hex digits, NUL-terminated */
	const char *name;   /* the ref name, NUL-terminated */
	const char *peeled; /* the '^' line's object name, or NULL */
};

/* Every pointer in v[] points into text; all owned by the struct. */
struct packed_refs {
	struct strbuf text;
	struct packed_ref *v;
	size_t nr, alloc;
	unsigned traits; /* enum packed_trait */
};
#define PACKED_REFS_INIT                   \
	{                                  \
		STRBUF_INIT, NULL, 0, 0, 0 \
	}

/*
 * Parses pr->text (the file's bytes) in place for an object format of
 * hexlen (40 or 64) hex digits. 0, or -1 (invariant 1) with pr->nr 0.
 * Pure.
 */
int packed_refs_parse(struct packed_refs *pr, size_t hexlen);

/*
 * Reads <commondir>/packed-refs, at most `max` bytes, and parses it.
 * 0 (also for a missing file: no refs), or -1 for "ask git" (invariants
 * 1 and 2).
 */
int packed_refs_read(struct packed_refs *pr, const char *commondir,
		     size_t hexlen, size_t max);

/* The entry named `name`, or NULL. The pointer is pr's. */
const struct packed_ref *packed_refs_find(const struct packed_refs *pr,
					  const char *name);

void packed_refs_release(struct packed_refs *pr);

#endif
