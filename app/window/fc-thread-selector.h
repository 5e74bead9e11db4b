/* fc-thread-selector.h - a searchable drop-down of the profile's threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_THREAD_SELECTOR (fc_thread_selector_get_type ())
G_DECLARE_FINAL_TYPE (FcThreadSelector, fc_thread_selector, FC, THREAD_SELECTOR, GtkWidget)

GtkWidget  *fc_thread_selector_new             (void);
FcSession  *fc_thread_selector_get_session     (FcThreadSelector *self);
void        fc_thread_selector_set_session     (FcThreadSelector *self,
                                                FcSession        *session);
GListModel *fc_thread_selector_get_model       (FcThreadSelector *self);
const char *fc_thread_selector_get_label       (FcThreadSelector *self);
void        fc_thread_selector_keep_room       (FcThreadSelector *self,
                                                int               max_chars);
void        fc_thread_selector_popup           (FcThreadSelector *self);
void        fc_thread_selector_popdown         (FcThreadSelector *self);

G_END_DECLS
