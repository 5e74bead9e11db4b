/* fc-loading-page.h - what the window shows while a file is read: what, a spinner, Cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FC_TYPE_LOADING_PAGE (fc_loading_page_get_type ())
G_DECLARE_FINAL_TYPE (FcLoadingPage, fc_loading_page, FC, LOADING_PAGE, GtkBox)

/* @label: what is being read ("Opening “x.json” (2 MB)…") */
void fc_loading_page_start (FcLoadingPage *self,
                            const char    *label);
void fc_loading_page_stop  (FcLoadingPage *self);

G_END_DECLS
