/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's error numbers: the system's own, which libc includes too. */
#ifndef _HOST_LINUX_ERRNO_H
#define _HOST_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
