/* fc-folded.h - folded ("collapsed") stacks, as flamegraph.pl, inferno and speedscope read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/* One line per distinct stack, root first, frames joined by ';', a space and
 * the number of samples; lines sorted. ';' in names becomes ':' and line
 * breaks spaces. Every thread of every profile in one output; with
 * @per_thread the thread ("name tid" or "tid N") is the root frame. */
GBytes     *fc_folded_write (FcDocument  *document,
                             gboolean     per_thread,
                             GError     **error);

/* One V2 chunk with one thread: each line's count as samples 10 ms apart. */
FcDocument *fc_folded_read  (GBytes      *bytes,
                             GError     **error);
/* TRUE when the first line looks like "a;b;c 12" */
gboolean    fc_folded_sniff (const char  *data,
                             gsize        len);

G_END_DECLS
