/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HOST_LINUX_STRING_H
#define _HOST_LINUX_STRING_H

#include <string.h>

#endif
