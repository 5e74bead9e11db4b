/* fc-record-dialog.h - choose what to record: a running process or a command to launch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "fc-live-recording.h"

G_BEGIN_DECLS

#define FC_TYPE_RECORD_DIALOG (fc_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (FcRecordDialog, fc_record_dialog, FC, RECORD_DIALOG, AdwWindow)

FcRecordDialog *fc_record_dialog_new          (GtkWindow      *parent);
/* for tests and screenshots: select @pid as if clicked; FALSE when it is not listed */
gboolean        fc_record_dialog_select_pid   (FcRecordDialog *self,
                                               GPid            pid);
/* the problem shown for the selection, or NULL */
const char     *fc_record_dialog_get_problem  (FcRecordDialog *self);
guint           fc_record_dialog_get_n_shown  (FcRecordDialog *self);
/* the "Follow child processes" switch (the follow-children setting) */
GtkSwitch      *fc_record_dialog_get_follow_switch (FcRecordDialog *self);
GtkCheckButton *fc_record_dialog_get_kernel_check  (FcRecordDialog *self);
/* types @text into the search entry */
void            fc_record_dialog_search       (FcRecordDialog *self,
                                               const char     *text);
/* reads the process list again now (it also does every 2 s while shown) */
void            fc_record_dialog_refresh      (FcRecordDialog *self);

G_END_DECLS
