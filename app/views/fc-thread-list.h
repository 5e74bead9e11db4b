/* fc-thread-list.h - a profile's threads in the order the thread selector shows them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "flamecast.h"

G_BEGIN_DECLS

#define FC_TYPE_THREAD_ITEM (fc_thread_item_get_type ())
G_DECLARE_FINAL_TYPE (FcThreadItem, fc_thread_item, FC, THREAD_ITEM, GObject)

/* FC_SESSION_ALL_THREADS (-1) for the "All threads" entry */
gint         fc_thread_item_get_index       (FcThreadItem *self);
const char  *fc_thread_item_get_name        (FcThreadItem *self);
/* the thread id as the payload wrote it; NULL for "All threads" */
const char  *fc_thread_item_get_tid         (FcThreadItem *self);
guint        fc_thread_item_get_n_samples   (FcThreadItem *self);
gint64       fc_thread_item_get_duration_ns (FcThreadItem *self);
/* the thread the profile opens on (active, else busiest) */
gboolean     fc_thread_item_get_is_default  (FcThreadItem *self);
/* the default thread is the transaction's active thread, not just the busiest */
gboolean     fc_thread_item_get_is_active   (FcThreadItem *self);
/* nearly all its samples waited (blocked or parked): listed apart, after the busy ones */
gboolean     fc_thread_item_get_is_idle     (FcThreadItem *self);
/* a group title to show above this item, or NULL */
const char  *fc_thread_item_get_heading     (FcThreadItem *self);
char        *fc_thread_item_dup_details     (FcThreadItem *self);
gboolean     fc_thread_item_matches         (FcThreadItem *self,
                                             const char   *casefolded_text);

GListModel  *fc_thread_list_new             (FcProfile    *profile,
                                            gint          default_thread);
gboolean     fc_thread_list_refresh         (GListModel   *list,
                                             FcProfile    *profile);

G_END_DECLS
