// SPDX-License-Identifier: GPL-2.0
/*
 * Naming code addresses for output, without ever printing one.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>

#include "internal.h"

void tpstat_symbol_name(char *buf, size_t size, const void *addr)
{
	char name[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(name, (unsigned long)addr);
	/* kallsyms falls back to the address in hex; no symbol starts so. */
	if (!strncmp(name, "0x", 2))
		strscpy(name, "unknown", sizeof(name));
	strscpy(buf, name, size);
}
EXPORT_SYMBOL_GPL(tpstat_symbol_name);
