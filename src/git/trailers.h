/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_TRAILERS_H
#define AG_TRAILERS_H

/**
 * The provenance trailers (reference §6.1, §6.3), pure text work:
 *   Agentic-Agent / Agentic-Task / Agentic-Branch / Agentic-Issued-At.
 *
 * trailers_apply() adds them exactly once: when the message already has an
 * `Agentic-Agent:` line outside comments it returns 0 and leaves `out`
 * empty. Otherwise it writes the new message into `out` and returns 1: the
 * trailers join an existing trailer block (e.g. Signed-off-by) or follow a
 * blank line, and go before git's trailing comment block and the `-v`
 * scissors line. Empty values are left out; CR/LF in a value becomes a
 * space. The caller decides whether to call it at all (a verified binding).
 */
#include "base/common.h"
#include "base/strbuf.h"

struct trailer_vals {
	const char *agent, *task, *branch, *issued_at; /* not owned */
};

/* merge, squash and template commits get no trailers (like the original). */
bool trailers_skip_source(const char *source);
bool trailers_present(const char *msg, size_t len);
int trailers_apply(const char *msg, size_t len, const struct trailer_vals *v,
		   struct strbuf *out);

#endif
