/* fc-header-title.h - what the window holds, named in its header: name, and what else tells it apart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FC_TYPE_HEADER_TITLE (fc_header_title_get_type ())
G_DECLARE_FINAL_TYPE (FcHeaderTitle, fc_header_title, FC, HEADER_TITLE, GtkBox)

void       fc_header_title_set       (FcHeaderTitle *self,
                                      const char    *title,
                                      const char    *subtitle);
/* @max_chars of room kept for the name, a pid's for the line below (-1: none,
 * they give way); returns the name's */
int        fc_header_title_keep_room (FcHeaderTitle *self,
                                      int            max_chars);
/* for tests: one of its parts by its id in fc-header-title.ui */
GtkWidget *fc_header_title_get_part  (FcHeaderTitle *self,
                                      const char    *id);

G_END_DECLS
