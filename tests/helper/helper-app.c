/* helper-app.c - the window attaches to a process this user may not trace, through flamecast-helper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run by test-helper as nobody (setpriv) on its private bus with the mock
 * polkit: FC_HELPER_APP_PID names a root-owned burner, FC_HELPER_APP_EXPECT
 * "yes" or "no" what polkit answers. Prints what the window showed, for the
 * caller to check as well. With FC_HELPER_APP_EXPECT "list-yes" or "list-no"
 * (and FLAMECAST_FORCE_SANDBOX=1), the Record dialog's list instead: the
 * burner listed through the helper, or polkit's no shown.
 */

#include <stdlib.h>

#include "fc-live-recording.h"
#include "fc-record-dialog.h"
#include "fc-window.h"
#include "fc-test-util.h"

typedef struct {
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Outcome;

static void
attached_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = fc_window_record_attach_finish (FC_WINDOW (source), result, &outcome->error);
  outcome->done = TRUE;
}

static guint
n_session_samples (FcWindow *window)
{
  FcProfile *profile = fc_session_get_profile (fc_window_get_session (window));

  return profile != NULL ? fc_profile_get_n_samples (profile) : 0;
}

static gboolean
live_stopped (FcWindow *window)
{
  FcLiveRecording *live = fc_window_get_live_recording (window);

  return live != NULL && fc_live_recording_get_state (live) == FC_LIVE_STATE_STOPPED;
}

static void
test_attach (void)
{
  int pid = atoi (g_getenv ("FC_HELPER_APP_PID"));
  gboolean expect_yes = g_strcmp0 (g_getenv ("FC_HELPER_APP_EXPECT"), "yes") == 0;
  FcWindow *window = g_object_ref (fc_window_new (NULL));
  Outcome outcome = { 0 };

  gtk_window_present (GTK_WINDOW (window));
  fc_access_set_use_helper (TRUE);
  g_assert_true (fc_access_needs_helper (pid, FC_SAMPLER_MODE_WALL));
  /* asynchronous: the window is not recording before polkit's answer comes back */
  fc_window_record_attach_async (window, pid, NULL, attached_cb, &outcome);
  g_assert_false (outcome.done);
  g_assert_false (fc_window_is_recording (window));
  fc_test_spin_until (outcome.done);

  if (expect_yes)
    {
      g_autofree char *note = NULL;

      g_assert_no_error (outcome.error);
      g_assert_true (outcome.ok);
      g_assert_true (fc_window_is_recording (window));
      note = fc_recorder_dup_access_note (fc_recording_get_recorder (fc_window_get_recording (window)));
      g_print ("# note: %s\n", note);
      fc_test_spin_until (n_session_samples (window) >= 20);
      fc_window_stop_recording (window, FALSE);
      fc_test_spin_until (live_stopped (window));
      g_print ("# recorded: %u samples\n", n_session_samples (window));
    }
  else
    {
      g_assert_false (outcome.ok);
      g_assert_nonnull (outcome.error);
      g_assert_false (fc_window_is_recording (window));
      /* the window's toast shows the same message */
      g_print ("# refused: %s\n", outcome.error->message);
      g_clear_error (&outcome.error);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

static gboolean
shows_problem (FcRecordDialog *dialog)
{
  return fc_record_dialog_get_problem (dialog) != NULL;
}

/* The Record dialog, sandboxed: the host's processes come from the helper's ListProcesses */
static void
test_list (void)
{
  int pid = atoi (g_getenv ("FC_HELPER_APP_PID"));
  gboolean expect_yes = g_strcmp0 (g_getenv ("FC_HELPER_APP_EXPECT"), "list-yes") == 0;
  FcWindow *window = g_object_ref (fc_window_new (NULL));
  FcRecordDialog *dialog;

  gtk_window_present (GTK_WINDOW (window));
  fc_access_set_use_helper (TRUE);
  g_assert_true (fc_access_through_helper (pid));
  dialog = g_object_ref (fc_record_dialog_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (dialog));
  fc_record_dialog_refresh (dialog);
  if (expect_yes)
    {
      fc_test_spin_until (fc_record_dialog_select_pid (dialog, pid));
      /* the host's process needs no check the sandbox could not make: nothing stands in the way */
      g_assert_null (fc_record_dialog_get_problem (dialog));
      g_print ("# listed: %d of %u processes\n", pid, fc_record_dialog_get_n_shown (dialog));
    }
  else
    {
      fc_test_spin_until (shows_problem (dialog));
      g_assert_cmpuint (fc_record_dialog_get_n_shown (dialog), ==, 0);
      g_print ("# problem: %s\n", fc_record_dialog_get_problem (dialog));
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();
  if (g_str_has_prefix (g_getenv ("FC_HELPER_APP_EXPECT") ?: "", "list-"))
    g_test_add_func ("/helper/app-list", test_list);
  else
    g_test_add_func ("/helper/app-attach", test_attach);
  return g_test_run ();
}
