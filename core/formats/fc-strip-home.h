/* fc-strip-home.h - an envelope with the user's home directory written as "~"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A copy of @envelope in which every JSON string of its profile, chunk,
 * transaction and event items that is @home (an absolute directory) or
 * starts with @home and "/" starts with "~" instead; item lengths are
 * rewritten. Other items are copied as they are. With "/" as @home, a
 * reference to @envelope: every path would become "~/...". */
GBytes *fc_envelope_strip_home (GBytes      *envelope,
                                const char  *home,
                                GError     **error);

G_END_DECLS
