/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_REPORT_INT_H
#define AG_FLEET_REPORT_INT_H

/**
 * Between the fleet page's readers (report-collect.c, report-journal.c);
 * not for other callers. Each reads into `r` and notes in r->notes what it
 * could not read.
 */
#include "fleet/report.h"

void report_ring_init(struct report_ring *rg, size_t cap);
void report_ring_release(struct report_ring *rg);
/* Needs r->agents (its counters are per agent). */
void report_read_journal(struct report *r);
void report_read_runs(struct report *r);
void report_run_release(struct report_run *run);

#endif
