/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_HTML_H
#define AG_HTML_H

/**
 * HTML text for the fleet page (`agentic-git report`): every string that
 * may come from an agent (branch, file and agent names, commit subjects,
 * deny reasons, snapshot paths) goes through here before it reaches the
 * page, so it stays text, never markup.
 *
 *   strbuf_add_html(&page, subject);   element text or a quoted attribute
 *
 * Two escapes, composed:
 *  1. the inert escape (base/inert.h): control characters, invalid UTF-8
 *     and the bidi controls become visible `\xHH` / `\uHHHH` text, so a
 *     name cannot reorder or hide what is around it on the page either;
 *     `\n` and `\t` are kept only with HTML_KEEP_NL (inside <pre>);
 *  2. the five characters HTML gives a meaning, & < > " ', as entities
 *     (&amp; &lt; &gt; &quot; &#39;).
 *
 * The output holds no '<', '>', '"' or '\'' at all and every '&' starts one
 * of those five entities, so it is safe as element text and inside a
 * double- or single-quoted attribute value. It is not safe in an unquoted
 * attribute, inside <script> or <style>, or as a URL: the page puts agent
 * strings in none of those.
 *
 * Pure; allocation failures die (strbuf).
 */
#include "base/common.h"
#include "base/strbuf.h"

enum html_flags {
	HTML_KEEP_NL = 1 << 0, /* '\n' and '\t' pass (text inside <pre>) */
};

/* Appends s (NULL appends nothing) escaped as above. */
void strbuf_add_html(struct strbuf *sb, const char *s, unsigned flags);
/* The same for len bytes at p, which may hold NUL bytes. */
void strbuf_add_html_mem(struct strbuf *sb, const void *p, size_t len,
			 unsigned flags);

#endif
