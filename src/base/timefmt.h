/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_TIMEFMT_H
#define AG_TIMEFMT_H

/** Time formatting for the on-disk contracts. */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"

/* RFC 3339 UTC with nanoseconds and "+00:00", e.g. 2026-11-29T21:07:02.301397292+00:00 */
void time_rfc3339_nanos(const struct timespec *ts, struct strbuf *out);
void time_now_rfc3339(struct strbuf *out);
/* RFC 3339 UTC to the second, "+00:00" offset: 2026-11-29T21:07:02+00:00 */
void time_rfc3339_seconds(long long t, struct strbuf *out);
/* Compact UTC stamp YYYYMMDDTHHMMSSZ. */
void time_compact_utc(time_t t, struct strbuf *out);
/*
 * Parses the RFC 3339 forms we write or accept (date, optional fraction,
 * Z or +hh:mm). Returns 0 and seconds since the epoch, or -1.
 */
int time_parse_rfc3339(const char *s, struct timespec *out);

/* Deadlines on CLOCK_MONOTONIC: `ms` from now, and the ms left until `t`
 * (0 once it has passed). */
struct timespec mono_after_ms(unsigned long ms);
long mono_ms_until(const struct timespec *t);

#endif
