// SPDX-License-Identifier: GPL-2.0
/*
 * A set's stats file: "name value" lines, the value a decimal u64. A name
 * is whatever comes before the last blank, so a key printed as it stands
 * (a command with a space in it) stays in its name. The memory file is
 * read the same way; lines starting with "#" are comments.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

static bool parse_value(const char *s, unsigned long long *value)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*value = strtoull(s, &end, 10);
	return !errno && !*end;
}

int tpstat_read_values(const char *rel, struct tpstat_stats *stats)
{
	char *text, *line, *next;
	size_t len, size = 0;
	int err;

	memset(stats, 0, sizeof(*stats));
	err = tpstat_read(rel, &text, &len);
	if (err)
		return err;
	for (line = text; *line; line = next) {
		char *end, *blank;
		unsigned long long value;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		end = next;
		while (end > line && (end[-1] == '\n' || end[-1] == ' ' ||
				      end[-1] == '\t'))
			end--;
		*end = '\0';
		if (*line == '#')
			continue;
		blank = strrchr(line, ' ');
		if (!blank || blank == line || !parse_value(blank + 1, &value)) {
			if (*line)
				stats->malformed++;
			continue;
		}
		while (blank > line && (blank[-1] == ' ' || blank[-1] == '\t'))
			blank--;
		*blank = '\0';
		if (stats->nr == size) {
			size = size ? size * 2 : 256;
			stats->lines = tpstat_realloc(stats->lines,
						      size * sizeof(*stats->lines));
		}
		stats->lines[stats->nr].name = tpstat_strdup(line);
		stats->lines[stats->nr++].value = value;
		if (!strcmp(line, "since_reset_ns")) {
			stats->has_since_reset = true;
			stats->since_reset_ns = value;
		}
	}
	free(text);
	return 0;
}

int tpstat_read_stats(const char *set, struct tpstat_stats *stats)
{
	struct tpstat_buf rel = { 0 };
	int err;

	tpstat_buf_printf(&rel, "%s/stats", set);
	err = tpstat_read_values(rel.s, stats);
	tpstat_buf_free(&rel);
	if (!err)
		stats->set = tpstat_strdup(set);
	return err;
}

void tpstat_free_stats(struct tpstat_stats *stats)
{
	size_t i;

	for (i = 0; i < stats->nr; i++)
		free(stats->lines[i].name);
	free(stats->lines);
	free(stats->set);
	memset(stats, 0, sizeof(*stats));
}
