/* SPDX-License-Identifier: GPL-2.0 */
/* What the tables take from <linux/atomic.h>: see host_kernel.h. */
#include <host_kernel.h>
