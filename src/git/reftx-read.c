/* SPDX-License-Identifier: Apache-2.0 */
/* The files behind reftx_value_kept(); see reftx.h. */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "base/refname.h"
#include "base/strbuf.h"
#include "git/packed-refs.h"
#include "git/refs-files.h"
#include "git/reftx.h"

#define REFTX_PACKED_MAX (256u << 20)

int reftx_read_values(const char *commondir, size_t hexlen, const char *ref,
		      struct reftx_values *v)
{
	struct strbuf path = STRBUF_INIT, now = STRBUF_INIT;
	struct packed_refs pr = PACKED_REFS_INIT;
	const struct packed_ref *p;
	struct stat st;
	int ret = -1;

	memset(v, 0, sizeof(*v));
	if ((hexlen != 40 && hexlen != 64) || !starts_with(ref, "refs/") ||
	    !refname_valid(ref, 0))
		return -1;
	/* its value now: the loose file, else packed-refs ("oid ref\n") */
	if (refs_files_lookup(commondir, hexlen, &ref, 1, &now) < 0 ||
	    packed_refs_read(&pr, commondir, hexlen, REFTX_PACKED_MAX) < 0)
		goto out;
	if (now.len > hexlen)
		memcpy(v->now, now.buf, hexlen);
	if ((p = packed_refs_find(&pr, ref)))
		memcpy(v->packed, p->oid, hexlen + 1);
	strbuf_addf(&path, "%s/packed-refs.lock", commondir);
	v->packed_locked = lstat(path.buf, &st) == 0 || errno != ENOENT;
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&now);
	packed_refs_release(&pr);
	return ret;
}
