/* fc-attach-error.h - why PTRACE_SEIZE or perf_event_open failed, and the fix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Builds the message for a failed PTRACE_SEIZE/perf_event_open with errno err on pid. */
void fc_attach_error_set (GError    **error,
                          GPid        pid,
                          int         err,
                          const char *what);

G_END_DECLS
