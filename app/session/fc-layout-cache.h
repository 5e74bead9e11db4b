/* fc-layout-cache.h - a session's flamechart layout, shared by the views
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

#define FC_TYPE_LAYOUT_CACHE (fc_layout_cache_get_type ())
G_DECLARE_FINAL_TYPE (FcLayoutCache, fc_layout_cache, FC, LAYOUT_CACHE, GObject)

FcLayoutCache *fc_layout_cache_new            (void);
gboolean       fc_layout_cache_get_busy       (FcLayoutCache       *self);

/* The flamechart and the minimap show the same layout: whoever asks first
 * computes it (off the main thread for big profiles), the other reuses it.
 * The callback may run before this returns (cached or small); its source
 * object is @session. */
void           fc_layout_cache_request        (FcSession           *session,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* NULL with no error when the session has no profile */
FcFlameLayout *fc_layout_cache_request_finish (GAsyncResult        *result,
                                               GError             **error);

G_END_DECLS
