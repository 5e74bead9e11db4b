/* fc-record-bar.h - the bar under the header while recording: status, sending, follow, lifecycle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-live-recording.h"

G_BEGIN_DECLS

#define FC_TYPE_RECORD_BAR (fc_record_bar_get_type ())
G_DECLARE_FINAL_TYPE (FcRecordBar, fc_record_bar, FC, RECORD_BAR, GtkBox)

/* shows @live (NULL: hides) */
void       fc_record_bar_set_live     (FcRecordBar     *self,
                                       FcLiveRecording *live);
/* for tests: one of its parts by its id in fc-record-bar.ui */
GtkWidget *fc_record_bar_get_part     (FcRecordBar     *self,
                                       const char      *id);

G_END_DECLS
