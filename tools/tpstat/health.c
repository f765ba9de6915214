// SPDX-License-Identifier: GPL-2.0
/*
 * The export's own health, after the sets' metrics, so that an alert can
 * tell an idle probe from one that is not attached, and a stale export
 * from a quiet one:
 *   tpstat_probe_state{set,tracepoint,state}  1 for each probe, in the
 *                                            state the probes file gives
 *   tpstat_build_info{version,module,kernel}  1: this command's version,
 *                                            the loaded core's, uname -r
 *   tpstat_memory_bytes{set}                 the memory file's sets (its
 *                                            kinds and total left out:
 *                                            sum() makes the total)
 *   tpstat_export_timestamp_seconds          when this export was made
 * A probe's series changes with its state, as its state is in its labels:
 * `tpstat_probe_state{state!="attached"}` finds the probes to look at.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "tpstat.h"

static void put_head(FILE *f, const char *name, const char *type,
		     const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* NAME{labels} VALUE, and @labels emptied for the next sample. */
static void put_sample(FILE *f, const char *name, struct tpstat_buf *labels,
		       unsigned long long value)
{
	fprintf(f, "%s{%s} %llu\n", name, labels->s, value);
	tpstat_buf_free(labels);
}

static bool exported(const char *set, char **sets, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(sets[i], set))
			return true;
	return false;
}

static void put_probe_states(FILE *f, const struct tpstat_probes *probes,
			     char **sets, size_t nr)
{
	size_t i;

	put_head(f, "tpstat_probe_state", "gauge",
		 "A probe of an exported set, 1 in the state the probes file gives it");
	for (i = 0; i < probes->nr; i++) {
		const struct tpstat_probe *p = &probes->p[i];
		struct tpstat_buf labels = { 0 };

		if (!exported(p->set, sets, nr))
			continue;
		tpstat_prometheus_label(&labels, "set", p->set);
		tpstat_prometheus_label(&labels, "tracepoint", p->tracepoint);
		tpstat_prometheus_label(&labels, "state", p->state);
		put_sample(f, "tpstat_probe_state", &labels, 1);
	}
}

static int put_build_info(FILE *f)
{
	struct tpstat_buf labels = { 0 };
	struct utsname uts;
	char *module;
	int err;

	err = tpstat_read_version(&module);
	if (err) {
		tpstat_file_error("version", err);
		return -1;
	}
	tpstat_prometheus_label(&labels, "version", TPSTAT_VERSION);
	tpstat_prometheus_label(&labels, "module", module);
	tpstat_prometheus_label(&labels, "kernel", uname(&uts) ? "unknown" : uts.release);
	put_head(f, "tpstat_build_info", "gauge",
		 "1, labelled by the command's version, the loaded core's and the kernel's release");
	put_sample(f, "tpstat_build_info", &labels, 1);
	free(module);
	return 0;
}

static int put_memory(FILE *f, char **sets, size_t nr)
{
	struct tpstat_stats memory;
	size_t i;
	int err;

	err = tpstat_read_values("memory", &memory);
	if (err) {
		tpstat_file_error("memory", err);
		return -1;
	}
	put_head(f, "tpstat_memory_bytes", "gauge",
		 "Bytes of a set's aggregation data, as the allocators gave them");
	for (i = 0; i < memory.nr; i++) {
		struct tpstat_buf labels = { 0 };
		const char *name = memory.lines[i].name;

		if (strncmp(name, "set.", 4) || !exported(name + 4, sets, nr))
			continue;
		tpstat_prometheus_label(&labels, "set", name + 4);
		put_sample(f, "tpstat_memory_bytes", &labels, memory.lines[i].value);
	}
	tpstat_free_stats(&memory);
	return 0;
}

int tpstat_export_health(FILE *f, const struct tpstat_probes *probes,
			 char **sets, size_t nr)
{
	struct timespec now;

	put_probe_states(f, probes, sets, nr);
	if (put_build_info(f) || put_memory(f, sets, nr))
		return -1;
	clock_gettime(CLOCK_REALTIME, &now);
	put_head(f, "tpstat_export_timestamp_seconds", "gauge",
		 "When this export was made, in seconds since the epoch");
	fprintf(f, "tpstat_export_timestamp_seconds %lld.%03ld\n",
		(long long)now.tv_sec, now.tv_nsec / 1000000);
	return 0;
}
