/* SPDX-License-Identifier: GPL-2.0 */
/* The system's linux/limits.h, which libc includes too, and the kernel's U64_MAX. */
#ifndef _HOST_LINUX_LIMITS_H
#define _HOST_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <stdint.h>

#define U64_MAX	UINT64_MAX

#endif
