// SPDX-License-Identifier: GPL-2.0
/*
 * Naming code addresses for output, without ever printing one.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>

#include "internal.h"

static void tpstat_symbol_print(char *buf, size_t size, const void *addr,
				bool offset)
{
	char name[KSYM_SYMBOL_LEN];

	if (offset)
		sprint_symbol(name, (unsigned long)addr);
	else
		sprint_symbol_no_offset(name, (unsigned long)addr);
	/* kallsyms falls back to the address in hex; no symbol starts so. */
	if (!strncmp(name, "0x", 2))
		strscpy(name, "unknown", sizeof(name));
	strscpy(buf, name, size);
}

void tpstat_symbol_name(char *buf, size_t size, const void *addr)
{
	tpstat_symbol_print(buf, size, addr, false);
}
EXPORT_SYMBOL_GPL(tpstat_symbol_name);

void tpstat_symbol_site(char *buf, size_t size, const void *addr)
{
	tpstat_symbol_print(buf, size, addr, true);
}
EXPORT_SYMBOL_GPL(tpstat_symbol_site);

size_t tpstat_symbol_size(const void *addr)
{
	char name[KSYM_SYMBOL_LEN];
	unsigned long offset, size;
	const char *plus;

	sprint_symbol(name, (unsigned long)addr);
	plus = strrchr(name, '+');
	if (!plus || sscanf(plus, "+%lx/%lx", &offset, &size) != 2 ||
	    offset > size)
		return 0;
	return size - offset;
}
