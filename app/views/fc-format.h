/* fc-format.h - durations, counts and shares as the views print them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *fc_format_duration (gint64 ns);
char *fc_format_percent  (gint64 part,
                          gint64 whole);

G_END_DECLS
