/* fc-layout-cache.h - one flamechart layout per session, shared by the views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-flame-layout.h"
#include "fc-session.h"

G_BEGIN_DECLS

/* Profiles with fewer samples than this are laid out on the calling thread:
 * it takes a few milliseconds and keeps small files (and tests) synchronous. */
#define FC_LAYOUT_CACHE_SYNC_SAMPLES 20000

/* The flamechart and the minimap show the same layout: whoever asks first
 * computes it (off the main thread for big profiles), the other reuses it.
 * The callback may run before this returns (cached or small). */
void           fc_layout_cache_request        (FcSession           *session,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* NULL with no error when the session has no profile */
FcFlameLayout *fc_layout_cache_request_finish (GAsyncResult        *result,
                                               GError             **error);

G_END_DECLS
