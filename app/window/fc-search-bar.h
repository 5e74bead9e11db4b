/* fc-search-bar.h - the header's frame search: entry, "n/m" matches, previous and next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-flame-chart.h"
#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_SEARCH_BAR (fc_search_bar_get_type ())
G_DECLARE_FINAL_TYPE (FcSearchBar, fc_search_bar, FC, SEARCH_BAR, GtkBox)

/* the session's search text, stepped through in @chart */
void       fc_search_bar_bind      (FcSearchBar  *self,
                                    FcSession    *session,
                                    FcFlameChart *chart);
/* focuses the entry when shown */
void       fc_search_bar_focus     (FcSearchBar  *self);
/* for tests: one of its parts by its id in fc-search-bar.ui */
GtkWidget *fc_search_bar_get_part  (FcSearchBar  *self,
                                    const char   *id);

G_END_DECLS
