/* fc-view-threads.h - which thread a profile opens on, and the time a thread covers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* every thread at once: the default when a profile has no thread with samples */
#define FC_VIEW_ALL_THREADS (-1)

/* where a view of a profile starts: the thread it opens on and the time
 * that thread covers (fc_view_threads_get_range()) */
typedef struct {
  gint   thread;
  gint64 begin_ns;
  gint64 end_ns;
} FcViewStart;

gint fc_view_threads_pick_default    (FcProfile *profile);
void fc_view_threads_pick_start      (FcProfile   *profile,
                                      FcViewStart *start);
void fc_view_threads_get_range       (FcProfile *profile,
                                      gint       thread,
                                      gint64    *begin_ns,
                                      gint64    *end_ns);
void fc_view_threads_get_grown_range (FcProfile *profile,
                                      gint       thread,
                                      gint64    *begin_ns,
                                      gint64    *end_ns);

G_END_DECLS
