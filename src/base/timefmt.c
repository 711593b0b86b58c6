/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "base/timefmt.h"

void time_rfc3339_nanos(const struct timespec *ts, struct strbuf *out)
{
	struct tm tm;
	gmtime_r(&ts->tv_sec, &tm);
	strbuf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d.%09ld+00:00",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, (long)ts->tv_nsec);
}

void time_now_rfc3339(struct strbuf *out)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	time_rfc3339_nanos(&ts, out);
}

void time_rfc3339_seconds(long long t, struct strbuf *out)
{
	struct tm tm;
	time_t tt = (time_t)t;

	gmtime_r(&tt, &tm);
	strbuf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d+00:00",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
}

void time_compact_utc(time_t t, struct strbuf *out)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strbuf_addf(out, "%04d%02d%02dT%02d%02d%02dZ", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	*out = v;
	return 0;
}

int time_parse_rfc3339(const char *s, struct timespec *out)
{
	struct tm tm;
	int y, mo, d, h = 0, mi = 0, se = 0;
	long nsec = 0;
	long off = 0;
	const char *p = s;

	memset(&tm, 0, sizeof(tm));
	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
	    *p++ != '-' || digits(&p, 2, &d))
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) ||
		    *p++ != ':' || digits(&p, 2, &se))
			return -1;
		if (*p == '.') {
			long scale = 100000000;
			p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			while (isdigit((unsigned char)*p)) {
				nsec += (*p - '0') * scale;
				scale /= 10;
				p++;
			}
		}
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			int sign = *p == '-' ? -1 : 1, oh, om;
			p++;
			if (digits(&p, 2, &oh) || *p++ != ':' ||
			    digits(&p, 2, &om))
				return -1;
			off = sign * (oh * 3600L + om * 60L);
		} else {
			return -1;
		}
	}
	if (*p)
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    se > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	out->tv_sec = timegm(&tm) - off;
	out->tv_nsec = nsec;
	return 0;
}

static struct timespec mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts;
}

struct timespec mono_after_ms(unsigned long ms)
{
	struct timespec ts = mono_now();
	ts.tv_sec += (time_t)(ms / 1000);
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

long mono_ms_until(const struct timespec *t)
{
	struct timespec now = mono_now();
	long ms = (long)(t->tv_sec - now.tv_sec) * 1000 +
		  (t->tv_nsec - now.tv_nsec) / 1000000L;
	return ms < 0 ? 0 : ms;
}
