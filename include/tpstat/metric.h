/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lines of a set's stats file are, declared by the set that
 * prints them: each metrics file (core/debugfs.c) lists the set's
 * declarations, then the core's, for tools that export the stats (the
 * tpstat command's Prometheus export) and know no set by name.
 *
 * A declaration's pattern describes one kind of stats line by its name,
 * components separated by dots as in the names:
 *   word      itself
 *   {label}   a key of one component (a vector, a migrate type)
 *   {label+}  a key of one or more components: labels may hold dots
 *             (a call site, a command); at most one in a pattern
 *   cpu{cpu}  the word, then a decimal number; keys among words in one
 *             component ({ifindex}@{netns}) are each a decimal number
 *   [...]     an optional part, which may hold others
 * A key named tracepoint is one of the set's probes. A reader takes the
 * first declaration whose pattern matches a line, the set's before the
 * core's: declare the narrower of two overlapping patterns first
 * ("slices.{comm+}.max" before "slices.{comm+}").
 *
 * A histogram's declaration also fixes the log2 buckets an export writes:
 * all of them from the one holding its lowest value to the one holding its
 * highest, on every scrape, whichever were seen, so that a rate of each
 * bucket is whole from the first scrape on. Values below the range count
 * in its first bucket (exact, as an export's buckets are cumulative),
 * values above it only in the total. TPSTAT_HIST_METRIC() takes its
 * unit's range: nanoseconds 256 ns to 4.3 s (2^32 - 1), bytes 8 B to
 * 16 MiB, basis points 0 to 10000, other values 0 to 65535;
 * TPSTAT_HIST_METRIC_RANGE() names its own.
 */
#ifndef _TPSTAT_METRIC_H
#define _TPSTAT_METRIC_H

#include <linux/types.h>

/**
 * enum tpstat_metric_kind - how a metric's value moves
 * @TPSTAT_METRIC_COUNTER: only grows, but at a reset, which zeroes it
 * @TPSTAT_METRIC_GAUGE: a value now, which may go down (rows held, a
 *                       capacity, the longest time seen)
 * @TPSTAT_METRIC_HIST: a histogram, printed as its lines (count, sum,
 *                      min, max, buckets, percentiles) under the pattern
 */
enum tpstat_metric_kind {
	TPSTAT_METRIC_COUNTER,
	TPSTAT_METRIC_GAUGE,
	TPSTAT_METRIC_HIST,
};

/**
 * enum tpstat_metric_unit - what a metric's value counts
 * @TPSTAT_METRIC_NONE: events, rows, a CPU: no unit to convert
 * @TPSTAT_METRIC_NS: nanoseconds, which an export turns into seconds
 * @TPSTAT_METRIC_BYTES: bytes
 * @TPSTAT_METRIC_BP: basis points, ten-thousandths of a whole, which an
 *                    export turns into a ratio from 0 to 1 (name it
 *                    ..._ratio, as a nanosecond metric's name says seconds)
 */
enum tpstat_metric_unit {
	TPSTAT_METRIC_NONE,
	TPSTAT_METRIC_NS,
	TPSTAT_METRIC_BYTES,
	TPSTAT_METRIC_BP,
};

/**
 * struct tpstat_metric - one kind of line of a set's stats file
 * @kind: counter, gauge or histogram
 * @unit: the unit of the values the line prints
 * @pattern: the lines' names (see the top of this header); no space
 * @name: the metric's name, without the tpstat_<set>_ prefix an export
 *        adds, with the word of its unit as exported (hardirq_seconds,
 *        requested_bytes, frag_ratio); no space
 * @help: one line that says what the metric counts
 * @low: a histogram's lowest value its export's buckets tell apart
 * @high: a histogram's highest value its export's buckets tell apart;
 *        0 (with @low 0) for its unit's range; 0 for a counter or a gauge
 *
 * Declare them with TPSTAT_COUNTER_METRIC(), TPSTAT_GAUGE_METRIC() and
 * TPSTAT_HIST_METRIC() in a const array, in the order a reader must try
 * them, and point the set's @metrics at it. tpstat_set_register() refuses
 * a set with a NULL field, a space in a pattern or a name, or a range
 * whose @low is above its @high or that is not a histogram's.
 */
struct tpstat_metric {
	enum tpstat_metric_kind kind;
	enum tpstat_metric_unit unit;
	const char *pattern;
	const char *name;
	const char *help;
	u64 low;
	u64 high;
};

#define TPSTAT_METRIC(k, pat, nm, u, h) \
	{ .kind = (k), .unit = (u), .pattern = (pat), .name = (nm), .help = (h) }

/* Lines of @pattern count events (or bytes, ...) since the reset. */
#define TPSTAT_COUNTER_METRIC(pattern, name, unit, help) \
	TPSTAT_METRIC(TPSTAT_METRIC_COUNTER, pattern, name, unit, help)

/* Lines of @pattern hold a value now. */
#define TPSTAT_GAUGE_METRIC(pattern, name, unit, help) \
	TPSTAT_METRIC(TPSTAT_METRIC_GAUGE, pattern, name, unit, help)

/* Lines of @pattern are a histogram's, exported with its unit's buckets. */
#define TPSTAT_HIST_METRIC(pattern, name, unit, help) \
	TPSTAT_METRIC(TPSTAT_METRIC_HIST, pattern, name, unit, help)

/* The same, exported with the buckets from the one of @lo to that of @hi. */
#define TPSTAT_HIST_METRIC_RANGE(pat, nm, u, lo, hi, h) \
	{ .kind = TPSTAT_METRIC_HIST, .unit = (u), .pattern = (pat), \
	  .name = (nm), .help = (h), .low = (lo), .high = (hi) }

#endif /* _TPSTAT_METRIC_H */
