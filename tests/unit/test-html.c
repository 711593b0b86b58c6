/* SPDX-License-Identifier: Apache-2.0 */
/* The fleet page's escaper (base/html.h). */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "base/html.h"

static void check(const char *in, unsigned flags, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_html(&sb, in, flags);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_markup_is_text(void **state)
{
	(void)state;
	check("plain feat/a-1.c", 0, "plain feat/a-1.c");
	check("<img src=x onerror=alert(1)>", 0,
	      "&lt;img src=x onerror=alert(1)&gt;");
	check("a&b \"q\" 'p'", 0, "a&amp;b &quot;q&quot; &#39;p&#39;");
	check("&lt;", 0, "&amp;lt;"); /* an entity in a name stays its text */
	check("</pre><script>x</script>", HTML_KEEP_NL,
	      "&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;");
	check("", 0, "");
}

/* The output never holds a character that could end text or a quote. */
static void test_no_markup_characters_survive(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char all[256];

	(void)state;
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = 0;
	strbuf_add_html(&sb, all, HTML_KEEP_NL);
	assert_null(strpbrk(sb.buf, "<>\"'"));
	for (const char *p = strchr(sb.buf, '&'); p; p = strchr(p + 1, '&'))
		assert_true(!strncmp(p, "&amp;", 5) || !strncmp(p, "&lt;", 4) ||
			    !strncmp(p, "&gt;", 4) ||
			    !strncmp(p, "&quot;", 6) ||
			    !strncmp(p, "&#39;", 5));
	strbuf_release(&sb);
}

/* Controls, bidi overrides and broken UTF-8 are visible, as inert text. */
static void test_controls_visible(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	check("a\nb\tc\x1b[2J", 0, "a\\x0ab\\x09c\\x1b[2J");
	check("a\nb\tc", HTML_KEEP_NL, "a\nb\tc");
	check("x\xe2\x80\xaey", 0, "x\\u202ey"); /* RIGHT-TO-LEFT OVERRIDE */
	check("\xff<", 0, "\\xff&lt;");
	check("caf\xc3\xa9", 0, "caf\xc3\xa9"); /* valid UTF-8 stays */
	strbuf_add_html_mem(&sb, "a\0<", 3, 0);
	assert_int_equal(sb.len, strlen("a\\x00&lt;"));
	assert_memory_equal(sb.buf, "a\\x00&lt;", sb.len);
	strbuf_add_html(&sb, NULL, 0);
	assert_int_equal(sb.len, strlen("a\\x00&lt;"));
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markup_is_text),
		cmocka_unit_test(test_no_markup_characters_survive),
		cmocka_unit_test(test_controls_visible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
