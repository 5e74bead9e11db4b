/* fc-perf-script.h - the text `perf script` prints, read into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/* Per sample a header "comm pid/tid [cpu] seconds.micros: [period] event:",
 * then one frame per line "\taddress symbol+offset (dso)", leaf first, and a
 * blank line. One V2 chunk: threads by tid named by comm, frames with
 * function, address and dso (as package), timestamps as perf printed them
 * (seconds since boot, not the epoch). */
FcDocument *fc_perf_script_read  (GBytes      *bytes,
                                  GError     **error);
/* TRUE when the text starts like `perf script` output */
gboolean    fc_perf_script_sniff (const char  *data,
                                  gsize        len);

G_END_DECLS
