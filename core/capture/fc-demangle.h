/* fc-demangle.h - symbol names as their language writes them: C++, Rust legacy and v0
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *fc_demangle (const char *name);

G_END_DECLS
