/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "base/html.h"
#include "base/inert.h"

void strbuf_add_html_mem(struct strbuf *sb, const void *p, size_t len,
			 unsigned flags)
{
	struct strbuf in = STRBUF_INIT;
	unsigned inert =
		flags & HTML_KEEP_NL ? INERT_KEEP_NL | INERT_KEEP_TAB : 0;

	strbuf_add_inert_mem(&in, p, len, inert);
	for (size_t i = 0; i < in.len; i++) {
		switch (in.buf[i]) {
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			strbuf_addch(sb, in.buf[i]);
		}
	}
	strbuf_release(&in);
}

void strbuf_add_html(struct strbuf *sb, const char *s, unsigned flags)
{
	if (s)
		strbuf_add_html_mem(sb, s, strlen(s), flags);
}
