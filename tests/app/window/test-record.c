/* test-record.c - recording from the real window: live view, stop, launch, the process picker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-app-settings.h"
#include "fc-flame-chart.h"
#include "fc-live-recording.h"
#include "fc-outbox-window.h"
#include "fc-record-bar.h"
#include "fc-record-dialog.h"
#include "fc-test-relay.h"
#include "fc-test-screenshot.h"
#include "fc-thread-list.h"
#include "fc-thread-selector.h"
#include "fc-view-util.h"
#include "fc-window.h"
#include "fc-test-util.h"

static FcWindow *
window_new (void)
{
  FcWindow *window = g_object_ref (fc_window_new (NULL));

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* a part of the record bar, by its id in fc-record-bar.ui */
static GtkWidget *
bar_part (FcWindow   *window,
          const char *id)
{
  return fc_record_bar_get_part (fc_window_get_part (window, "record_bar"), id);
}

/* the window's recording stopped, and what it sent is reported */
static gboolean
live_done (FcWindow *window)
{
  FcLiveRecording *live = fc_window_get_live_recording (window);

  return live != NULL && fc_live_recording_get_state (live) == FC_LIVE_STATE_STOPPED;
}

/* Iterates until @cond (fc_test_spin_until(): a stuck test fails after 90 s). */
#define ITERATE_UNTIL(cond) fc_test_spin_until (cond)

/* Destroys a window the test holds the last reference to and waits until it is finalized: a
 * task in flight (a listing of the outbox, a chunk on its way) holds it until it returns, which
 * on a loaded machine is after the destroy. A window that leaks is never finalized. */
static void
toplevel_free (GtkWindow *window)
{
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_destroy (window);
  g_object_unref (window);
  ITERATE_UNTIL (window == NULL);
}

static void
window_free (FcWindow *window)
{
  toplevel_free (GTK_WINDOW (window));
}

/* Destroys a record dialog (the test holds a reference) and waits for it to
 * be finalized: a process list read in flight holds it until it returns,
 * which on a loaded machine (or under ASan) is after the destroy. */
static void
dialog_free (FcRecordDialog *dialog)
{
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
  ITERATE_UNTIL (dialog == NULL);
}

static char *
proc_status_field (GPid        pid,
                   const char *key)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], key))
      return g_strstrip (g_strdup (lines[i] + strlen (key)));
  return NULL;
}

static gboolean
is_untraced (GPid pid)
{
  g_autofree char *tracer = proc_status_field (pid, "TracerPid:");

  return g_strcmp0 (tracer, "0") == 0;
}

static guint
n_session_samples (FcWindow *window)
{
  FcProfile *profile = fc_session_get_profile (fc_window_get_session (window));
  return profile != NULL ? fc_profile_get_n_samples (profile) : 0;
}

static gboolean
selector_has (FcWindow   *window,
              const char *name)
{
  GListModel *model = fc_thread_selector_get_model (fc_window_get_part (window, "thread_selector"));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(FcThreadItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (fc_thread_item_get_name (item), name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* How many of the session's frames are @function (0 when none yet). */
static guint
n_frames_named (FcWindow   *window,
                const char *function)
{
  FcProfile *profile = fc_session_get_profile (fc_window_get_session (window));
  guint n = 0;

  for (guint i = 0; profile != NULL && i < fc_profile_get_n_frames (profile); i++)
    if (g_strcmp0 (fc_profile_string (profile, fc_profile_get_frame (profile, i)->function), function) == 0)
      n++;
  return n;
}

/* The flamechart shows the last seconds recorded (it follows the live edge). */
static gboolean
at_live_edge (FcWindow *window)
{
  FcSession *session = fc_window_get_session (window);
  gint64 begin, end;

  fc_session_get_thread_range (session, &begin, &end);
  return end > begin && fc_session_get_visible_end_ns (session) == end &&
         fc_session_get_visible_begin_ns (session) == MAX (begin, end - FC_SESSION_LIVE_WINDOW_NS);
}

/* The live flamechart's box for @function, found where it is drawn, and
 * the layout it is a box of (a live one is replaced several times a second). */
static FcFlameLayout *
live_box_named (FcWindow   *window,
                const char *function,
                FcFlameBox *box)
{
  FcFlameChart *chart = fc_window_get_part (window, "flame_chart");
  int width = gtk_widget_get_width (GTK_WIDGET (chart));
  int height = gtk_widget_get_height (GTK_WIDGET (chart));
  FcFlameLayout *layout = fc_flame_view_get_layout (FC_FLAME_VIEW (chart));

  if (layout == NULL)
    return NULL;
  for (int y = 2; y < MIN (height, 400); y += 4)
    for (int x = 1; x < width; x += 4)
      {
        FcProfile *profile = fc_flame_layout_get_profile (layout);

        if (fc_flame_chart_box_at (chart, x, y, box) &&
            g_strcmp0 (fc_profile_string (profile, fc_profile_get_frame (profile, box->frame)->function), function) == 0)
          return fc_flame_layout_ref (layout);
      }
  return NULL;
}

/* While recording, the flamechart's tooltips say where a function was, as
 * for an opened file: worker_main's box has threads.c with the line and the
 * return address it calls worker_spin from. */
static void
assert_live_tooltip (FcWindow *window)
{
  g_autoptr(FcFlameLayout) layout = NULL;
  FcFlameBox box;
  FcProfile *profile;
  g_autofree char *markup = NULL;
  g_autofree char *pattern = NULL;

  ITERATE_UNTIL ((layout = live_box_named (window, "worker_main", &box)) != NULL);
  profile = fc_flame_layout_get_profile (layout);
  /* the live copy, still growing */
  g_assert_true (profile == fc_session_get_profile (fc_window_get_session (window)));
  g_assert_false (fc_profile_is_finished (profile));
  /* what the flamechart's query-tooltip shows for it */
  markup = fc_view_frame_tooltip_at (profile, box.frame, fc_flame_layout_box_stack (layout, &box),
                                     fc_flame_layout_box_end_ns (layout, &box) - fc_flame_layout_box_begin_ns (layout, &box),
                                     0, NULL);
  g_test_message ("live tooltip: %s", markup);
  /* one call site: line and address; a sample caught in worker_main's own
   * loop too: "several lines" (a view without locations says "threads.c") */
  g_assert_true (g_regex_match_simple ("threads\\.c(:[0-9]+ · 0x[0-9a-f]+| \\(several lines\\))$", markup,
                                       G_REGEX_MULTILINE, 0));
  /* the details panel says the same of the function (all its call paths) */
  fc_session_set_selected_frame (fc_window_get_session (window), box.frame);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  fc_test_screenshot (GTK_WIDGET (window), "appitems-live");
  fc_session_set_selected_frame (fc_window_get_session (window), FC_SESSION_NO_FRAME);
}

/* Attach to a running program: the count grows between iterations, named
 * threads appear in the selector, Stop leaves the recording open and the
 * program running untraced. */
static void
test_attach_live (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  char *argv[] = { threads, "3600", NULL };  /* killed by the test, however slow the machine */
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *tracer = NULL;
  g_autofree char *state = NULL;
  guint before, grew = 0;
  char ready[6];
  int status, out_fd;
  GPid pid;

  g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, fc_test_die_with_test, NULL, &pid,
                                           NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  /* the threads have named themselves */
  g_assert_cmpint (read (out_fd, ready, sizeof ready), ==, sizeof ready);
  close (out_fd);

  g_assert_true (fc_window_record_attach (window, pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_window_is_recording (window));
  g_assert_false (fc_window_is_empty (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "record_stack")), ==, "stop");
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (bar_part (window, "revealer"))));

  /* live: the session's profile grows while the main loop runs */
  ITERATE_UNTIL (n_session_samples (window) > 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "profile");
  before = n_session_samples (window);
  for (guint i = 0; i < 5; i++)
    {
      guint n = n_session_samples (window);
      ITERATE_UNTIL (n_session_samples (window) > n);
      grew++;
    }
  g_assert_cmpuint (grew, ==, 5);
  g_assert_cmpuint (n_session_samples (window), >, before);
  ITERATE_UNTIL (selector_has (window, "fc-worker-1") && selector_has (window, "fc-sleeper"));

  /* while recording, the views show functions by name, as after Stop: the
   * spinning worker's leaf is one frame, not one per address it was caught at */
  ITERATE_UNTIL (n_frames_named (window, "worker_spin") > 0);
  g_assert_true (fc_window_is_recording (window));
  g_assert_cmpuint (n_frames_named (window, "worker_spin"), ==, 1);
  g_assert_cmpuint (n_frames_named (window, "worker_main"), ==, 1);

  /* following: once the flamechart has the grown layout, it shows the live edge */
  {
    guint n = n_session_samples (window);
    ITERATE_UNTIL (n_session_samples (window) > n && at_live_edge (window));
  }
  assert_live_tooltip (window);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (bar_part (window, "record_status_label"))), "samples"));
  /* "1 thread", "2 threads" */
  {
    guint n = fc_recorder_get_n_threads (fc_recording_get_recorder (fc_window_get_recording (window)));
    g_autofree char *expected = g_strdup_printf (n == 1 ? " %u thread ·" : " %u threads ·", n);

    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (bar_part (window, "record_status_label"))), expected));
  }

  /* Stop (the action the shortcut triggers) */
  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (fc_recording_get_stopped (fc_window_get_recording (window)));
  g_assert_false (fc_window_is_recording (window));
  /* the live view is a copy that grows; the recording opens finished */
  ITERATE_UNTIL (fc_profile_is_finished (fc_session_get_profile (fc_window_get_session (window))));
  g_assert_cmpuint (n_session_samples (window), >=, before);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "profile");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "record_stack")), ==, "record");

  /* the program runs on, untraced */
  tracer = proc_status_field (pid, "TracerPid:");
  g_assert_cmpstr (tracer, ==, "0");
  state = proc_status_field (pid, "State:");
  g_assert_false (state[0] == 't' || state[0] == 'T');
  g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0);

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  window_free (window);
}

/* The user's choices while recording stay: All threads follows the live
 * edge as the thread did, and Stop opens the whole recording on All threads,
 * not the busiest; the thread list has the idle threads apart. */
static void
test_live_choices (void)
{
  GPid pid;
  FcWindow *window = window_new ();
  FcSession *session = fc_window_get_session (window);
  g_autoptr(GError) error = NULL;
  g_autofree char *threads = fc_test_target_path ("threads");
  char *argv[] = { threads, "3600", NULL };  /* killed by the test, however slow the machine */
  int status;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                fc_test_die_with_test, NULL, &pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_window_record_attach (window, pid, &error));
  g_assert_no_error (error);
  ITERATE_UNTIL (selector_has (window, "fc-worker-1") && selector_has (window, "fc-sleeper"));
  {
    guint n = n_session_samples (window);
    ITERATE_UNTIL (n_session_samples (window) > n && at_live_edge (window));
  }
  g_assert_true (fc_live_edge_get_following (fc_live_recording_get_edge (fc_window_get_live_recording (window))));

  /* another thread: its live edge, still following */
  fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
  g_assert_true (fc_live_edge_get_following (fc_live_recording_get_edge (fc_window_get_live_recording (window))));
  {
    guint n = n_session_samples (window);
    ITERATE_UNTIL (n_session_samples (window) > n && at_live_edge (window));
  }
  g_assert_true (fc_live_edge_get_following (fc_live_recording_get_edge (fc_window_get_live_recording (window))));
  g_assert_false (gtk_widget_get_visible (bar_part (window, "follow_button")));

  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  ITERATE_UNTIL (fc_session_get_document (session) == fc_recording_get_document (fc_window_get_recording (window)));
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);

  /* the sleeper waits in nanosleep nearly always: an idle thread, after the busy ones */
  {
    GListModel *model = fc_thread_selector_get_model (fc_window_get_part (window, "thread_selector"));
    gboolean seen_idle = FALSE;

    for (guint i = 1; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(FcThreadItem) item = g_list_model_get_item (model, i);

        if (g_strcmp0 (fc_thread_item_get_name (item), "fc-sleeper") == 0)
          g_assert_true (fc_thread_item_get_is_idle (item));
        if (g_str_has_prefix (fc_thread_item_get_name (item), "fc-worker"))
          {
            g_assert_false (fc_thread_item_get_is_idle (item));
            g_assert_false (seen_idle);
          }
        seen_idle |= fc_thread_item_get_is_idle (item);
      }
    g_assert_true (seen_idle);
  }
  fc_thread_selector_popup (fc_window_get_part (window, "thread_selector"));
  fc_test_screenshot (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (fc_window_get_part (window, "thread_selector")),
                                                                 FC_TYPE_THREAD_SELECTOR, "popover")),
                      "appitems-idle-threads");
  fc_thread_selector_popdown (fc_window_get_part (window, "thread_selector"));

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  window_free (window);
}

/* flamecast -- CMD: records until the command exits; the window stays on it. */
static void
test_spawn_until_exit (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "0.6", "-t", "2", NULL };
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  FcRecording *recording;

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  recording = fc_window_get_recording (window);
  ITERATE_UNTIL (fc_recording_get_stopped (recording));
  g_assert_true (fc_recording_get_target_exited (recording, NULL));
  ITERATE_UNTIL (fc_session_get_profile (fc_window_get_session (window)) != NULL &&
                 fc_profile_is_finished (fc_session_get_profile (fc_window_get_session (window))));
  g_assert_cmpuint (n_session_samples (window), >, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "profile");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (bar_part (window, "record_status_label"))), "Recorded"));
  window_free (window);
}

/* A command launched from the window gets the environment Flamecast was started with, not the
 * variables the app set for itself afterwards (main() saves it first; GDK_DEBUG=gl-disable without
 * a GPU would make the user's GTK program draw with cairo). */
static void
test_spawn_user_environ (void)
{
  const char *argv[] = { "/bin/sh", "-c", "test \"$FC_TEST_LAUNCH\" = users", NULL };
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  FcRecording *recording;
  int status = -1;

  g_setenv ("FC_TEST_LAUNCH", "users", TRUE);
  fc_live_recording_save_user_environ ();
  g_setenv ("FC_TEST_LAUNCH", "the app's", TRUE);
  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  recording = fc_window_get_recording (window);
  ITERATE_UNTIL (fc_recording_get_stopped (recording));
  g_assert_true (fc_recording_get_target_exited (recording, &status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_unsetenv ("FC_TEST_LAUNCH");
  window_free (window);
}

/* The record dialog's "Follow child processes" switch is the follow-children setting; a
 * command launched with it on is recorded with its children: the grandchild's work shows. */
static void
test_follow_switch (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *forker = fc_test_target_path ("forker");
  const char *argv[] = { forker, "0.5", NULL };
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  FcRecordDialog *dialog;
  FcRecording *recording;
  GtkSwitch *follow;

  g_settings_reset (settings, "follow-children");
  dialog = g_object_ref (fc_record_dialog_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (dialog));
  follow = fc_record_dialog_get_follow_switch (dialog);
  g_assert_false (gtk_switch_get_active (follow));
  /* the switch writes the setting, and follows it */
  gtk_switch_set_active (follow, TRUE);
  g_assert_true (g_settings_get_boolean (settings, "follow-children"));
  g_settings_set_boolean (settings, "follow-children", FALSE);
  g_assert_false (gtk_switch_get_active (follow));
  gtk_switch_set_active (follow, TRUE);
  /* the setting's change notifications are delivered from the main loop */
  fc_test_drain ();
  dialog_free (dialog);

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  recording = fc_window_get_recording (window);
  g_assert_true (fc_recorder_get_follow_children (fc_recording_get_recorder (recording)));
  ITERATE_UNTIL (fc_recording_get_stopped (recording));
  ITERATE_UNTIL (fc_session_get_profile (fc_window_get_session (window)) != NULL &&
                 fc_profile_is_finished (fc_session_get_profile (fc_window_get_session (window))));
  /* the work of the grandchild, two forks and an exec away, is in the recording */
  g_assert_cmpuint (n_frames_named (window, "grandchild_burn"), >, 0);

  g_settings_reset (settings, "follow-children");
  window_free (window);
}

/* Closing the window while recording releases the target first. */
static void
test_close_detaches (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  char *argv[] = { burner, "-s", "3600", NULL };  /* killed by the test */
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *tracer = NULL;
  FcRecording *recording;
  int status;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                fc_test_die_with_test, NULL, &pid, &error));
  g_assert_true (fc_window_record_attach (window, pid, &error));
  g_assert_no_error (error);
  recording = g_object_ref (fc_window_get_recording (window));
  ITERATE_UNTIL (n_session_samples (window) > 0);

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (window));
  ITERATE_UNTIL (fc_recording_get_stopped (recording));
  g_object_unref (window);   /* ours; the close destroyed it */
  g_assert_null (window);
  tracer = proc_status_field (pid, "TracerPid:");
  g_assert_cmpstr (tracer, ==, "0");
  g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0);

  g_object_unref (recording);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
}

/* The picker lists our processes and names what stands in the way. */
static void
test_dialog (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  char *argv[] = { burner, "-s", "3600", NULL };  /* killed by the test */
  FcWindow *window = window_new ();
  FcRecordDialog *dialog;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcRecorder) tracer = fc_recorder_new ();
  int status;
  GPid pid, traced;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                fc_test_die_with_test, NULL, &pid, &error));
  /* someone else's recording: a process already traced */
  g_assert_true (fc_recorder_spawn (tracer, (const char * const *) argv, NULL, &error));
  traced = fc_recorder_get_pid (tracer);

  dialog = g_object_ref (fc_record_dialog_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (dialog));
  ITERATE_UNTIL (fc_record_dialog_get_n_shown (dialog) > 2);

  /* kernel threads (kthreadd is pid 2) only on request */
  {
    g_autofree char *comm = NULL;

    if (g_file_get_contents ("/proc/2/comm", &comm, NULL, NULL) && g_str_has_prefix (comm, "kthreadd"))
      {
        g_assert_false (fc_record_dialog_select_pid (dialog, 2));
        gtk_check_button_set_active (fc_record_dialog_get_kernel_check (dialog), TRUE);
        g_assert_true (fc_record_dialog_select_pid (dialog, 2));
        gtk_check_button_set_active (fc_record_dialog_get_kernel_check (dialog), FALSE);
        g_assert_false (fc_record_dialog_select_pid (dialog, 2));
      }
    else
      g_test_message ("no kthreadd in this pid namespace: kernel threads not checked");
  }

  ITERATE_UNTIL (fc_record_dialog_select_pid (dialog, traced));
  g_assert_nonnull (fc_record_dialog_get_problem (dialog));
  g_assert_nonnull (strstr (fc_record_dialog_get_problem (dialog), "already traced by process"));

  g_assert_true (fc_record_dialog_select_pid (dialog, pid));
  g_assert_null (fc_record_dialog_get_problem (dialog));

  /* searching by pid narrows the list to it */
  {
    g_autofree char *text = g_strdup_printf ("%d", pid);

    fc_record_dialog_search (dialog, text);
    g_assert_cmpuint (fc_record_dialog_get_n_shown (dialog), >=, 1);
    g_assert_cmpuint (fc_record_dialog_get_n_shown (dialog), <=, 3);
  }

  dialog_free (dialog);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  kill (traced, SIGKILL);
  fc_recorder_detach (tracer);
  window_free (window);
}

static GPid
spawn_threads_target (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  char *argv[] = { threads, "3600", NULL };  /* killed by the test, however slow the machine */
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                fc_test_die_with_test, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

/* A recording the window no longer shows still hears from its target: a launched program that
 * outlived its recording (Stop) ends while the window records another. That is the old
 * recording's news, never the window's: the window's recording goes on. (The window used to
 * act on any recording's "target-exited" as its own, stopping the one it showed, or asserting
 * when it showed none.) */
static void
test_old_target_exits (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "60", NULL };
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(FcRecording) first = NULL;
  GPid first_pid, second_pid;
  int status;

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  first = g_object_ref (fc_window_get_recording (window));
  first_pid = fc_recording_get_pid (first);
  ITERATE_UNTIL (n_session_samples (window) > 0);
  /* Stop: the program keeps running */
  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  g_assert_false (fc_recording_get_target_exited (first, NULL));

  /* (started now: it runs 60 s, however long the first part took) */
  second_pid = spawn_threads_target ();
  g_assert_true (fc_window_record_attach (window, second_pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_window_get_recording (window) != first);
  kill (first_pid, SIGTERM);
  ITERATE_UNTIL (fc_recording_get_target_exited (first, NULL));
  /* whatever the main loop had to deliver about it, delivered (not "while anything is ready":
   * the second recording always has something, and under load that loop never ended) */
  fc_test_drain ();
  {
    int second_status = 0;
    gboolean second_exited = fc_recording_get_target_exited (fc_window_get_recording (window), &second_status);

    if (second_exited)
      g_test_message ("the second target exited, status %d; pids %d %d", second_status, first_pid, second_pid);
    g_assert_false (second_exited);
  }
  g_assert_true (fc_window_is_recording (window));
  g_assert_cmpint (fc_live_recording_get_state (fc_window_get_live_recording (window)), !=, FC_LIVE_STATE_STOPPING);
  /* and it still records: its samples keep coming */
  {
    guint n = fc_recorder_get_n_samples (fc_recording_get_recorder (fc_window_get_recording (window)));

    ITERATE_UNTIL (fc_recorder_get_n_samples (fc_recording_get_recorder (fc_window_get_recording (window))) > n);
  }

  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  window_free (window);
  kill (second_pid, SIGKILL);
  waitpid (second_pid, &status, 0);
}

static void
end_target (GPid pid)
{
  int status;

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
}

static guint
n_delivered (Relay *relay)
{
  guint n;

  g_mutex_lock (&relay->mutex);
  n = relay->delivered->len;
  g_mutex_unlock (&relay->mutex);
  return n;
}

static GPtrArray *
outbox_list (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);

  return fc_outbox_list (outbox);
}

static FcSenderProgress
send_progress (FcWindow *window)
{
  FcSenderProgress progress;

  g_assert_nonnull (fc_live_recording_get_sender (fc_window_get_live_recording (window)));
  fc_sender_get_progress (fc_live_recording_get_sender (fc_window_get_live_recording (window)), &progress);
  return progress;
}

/* The record bar's sending indicator says what the sender reported. */
static void
assert_send_label (FcWindow *window,
                   guint     sent,
                   guint     queued,
                   guint     failed)
{
  g_autofree char *expected = g_strdup_printf ("Sending: %u sent · %u queued · %u failed", sent, queued, failed);

  g_assert_true (gtk_widget_get_visible (bar_part (window, "send_button")));
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (bar_part (window, "revealer"))));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (bar_part (window, "send_label"))), ==, expected);
  g_assert_true (gtk_widget_has_css_class (bar_part (window, "send_label"), "error") == (failed > 0));
}

/* Every 10 s of a long wait, what the recording and its sender have done: a wait that ends in
 * the deadline then says where it stood. */
static gboolean
log_send_progress_cb (gpointer data)
{
  FcWindow *window = data;
  FcSenderProgress progress = send_progress (window);

  g_test_message ("samples %u; sender: queued %u, delivered %u, rejected %u, waiting %u, pending %u",
                  fc_recorder_get_n_samples (fc_recording_get_recorder (fc_window_get_recording (window))),
                  progress.queued, progress.delivered, progress.rejected, progress.waiting, progress.pending);
  return G_SOURCE_CONTINUE;
}

/* Sentry refuses the first chunk (400): the indicator counts it failed, in
 * the error colour, and the chunks after it sent. */
static void
test_send_rejected (void)
{
  Relay *relay = relay_new ();
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *dsn = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  FcSenderProgress progress;
  GPid pid = spawn_threads_target ();

  g_settings_set_string (settings, "dsn", dsn);
  g_settings_set_boolean (settings, "send-while-recording", TRUE);
  g_settings_set_int (settings, "chunk-duration", 1);
  relay_script (relay, REPLY_400, -1);

  g_assert_true (fc_window_record_attach (window, pid, &error));
  g_assert_no_error (error);
  {
    guint log_id = g_timeout_add_seconds (10, log_send_progress_cb, window);

    ITERATE_UNTIL (send_progress (window).rejected == 1 && send_progress (window).delivered >= 1);
    g_source_remove (log_id);
  }
  progress = send_progress (window);
  assert_send_label (window, progress.delivered, progress.pending, 1);
  fc_test_screenshot (GTK_WIDGET (window), "appitems-sending-failed");

  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  progress = send_progress (window);
  g_assert_cmpuint (progress.rejected, ==, 1);
  g_assert_cmpuint (progress.delivered, ==, n_delivered (relay));
  g_assert_cmpuint (progress.delivered + progress.rejected, ==, progress.queued);
  assert_send_label (window, progress.delivered, 0, 1);
  /* the full recording is open (its worker no longer holds the window) */
  ITERATE_UNTIL (fc_session_get_profile (fc_window_get_session (window)) != NULL &&
                 fc_profile_is_finished (fc_session_get_profile (fc_window_get_session (window))));

  g_settings_reset (settings, "send-while-recording");
  g_settings_reset (settings, "chunk-duration");
  g_settings_reset (settings, "dsn");
  window_free (window);
  end_target (pid);
  relay_free (relay);
}

/* With "send-while-recording", each chunk goes to Sentry as it completes,
 * once; when Sentry rate-limits, the rest waits in the outbox, and the
 * Outbox page lists it. */
static void
test_send_while_recording (void)
{
  Relay *relay = relay_new ();
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *dsn = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  gboolean attached;
  g_autoptr(GPtrArray) waiting = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  FcOutboxWindow *outbox = NULL;
  FcRecording *recording;
  FcSender *sender = NULL;
  guint n_chunks;
  GPid pid = spawn_threads_target ();

  g_settings_set_string (settings, "dsn", dsn);
  g_settings_set_boolean (settings, "send-while-recording", TRUE);
  g_settings_set_int (settings, "chunk-duration", 1);

  g_assert_true (fc_window_record_attach (window, pid, &error));
  g_assert_no_error (error);
  recording = fc_window_get_recording (window);
  g_object_get (recording, "sender", &sender, NULL);
  g_assert_nonnull (sender);
  g_clear_object (&sender);

  /* a chunk arrives while the recording goes on, and the record bar says so */
  ITERATE_UNTIL (n_delivered (relay) >= 1);
  g_assert_true (fc_window_is_recording (window));
  ITERATE_UNTIL (send_progress (window).delivered >= 1);
  {
    FcSenderProgress progress = send_progress (window);

    assert_send_label (window, progress.delivered, progress.pending, 0);
  }
  fc_test_screenshot (GTK_WIDGET (window), "appitems-sending");
  /* beside the sending indicator, even in a narrow window, the mode and rate stay whole */
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  fc_test_wait_for_paint (GTK_WIDGET (window));
  {
    int natural = 0;

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (bar_part (window, "record_mode_label"))), ==, " · wall · 101 Hz");
    gtk_widget_measure (bar_part (window, "record_mode_label"), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural,
                        NULL, NULL);
    ITERATE_UNTIL (gtk_widget_get_width (bar_part (window, "record_mode_label")) >= natural);
  }
  fc_test_screenshot (GTK_WIDGET (window), "appitems-sending-narrow");

  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  /* every envelope the sender took once, each a profile_chunk (see below
   * for why the sender's count, not the chunks') */
  g_object_get (recording, "sender", &sender, NULL);
  n_chunks = fc_sender_get_n_queued (sender);
  g_clear_object (&sender);
  g_assert_cmpuint (n_chunks, >=, 1);
  g_assert_cmpuint (n_chunks, <=, fc_recording_get_n_chunks (recording));
  g_assert_cmpuint (n_delivered (relay), ==, n_chunks);
  assert_send_label (window, n_chunks, 0, 0);
  g_mutex_lock (&relay->mutex);
  for (guint i = 0; i < relay->delivered->len; i++)
    {
      GBytes *envelope = g_ptr_array_index (relay->delivered, i);
      g_autofree char *text = g_strndup (g_bytes_get_data (envelope, NULL), g_bytes_get_size (envelope));

      g_assert_nonnull (strstr (text, "\"type\":\"profile_chunk\""));
      g_assert_true (g_hash_table_add (seen, envelope));
    }
  g_mutex_unlock (&relay->mutex);
  waiting = outbox_list ();
  g_assert_cmpuint (waiting->len, ==, 0);
  g_clear_pointer (&waiting, g_ptr_array_unref);

  /* rate limited from the first chunk on: nothing is lost, the outbox has it; recorded again
   * once the program is released (the sampler thread lets it go after "stopped": on a loaded
   * machine a moment later, and until then the attach is refused as already traced) */
  relay_script (relay, REPLY_429_LIMITS, -1);
  fc_test_poll_until (is_untraced (pid));
  attached = fc_window_record_attach (window, pid, &error);
  g_assert_no_error (error);
  g_assert_true (attached);
  recording = fc_window_get_recording (window);
  ITERATE_UNTIL (relay_n_requests (relay) > n_chunks);
  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  /* Every envelope the sender took is in the outbox. On a loaded machine a
   * one-second chunk can be one Relay would refuse (a thread with a single
   * sample): the recording warns and writes no envelope for it, so the count
   * to compare with is the sender's, not the chunks'. */
  g_object_get (recording, "sender", &sender, NULL);
  g_assert_cmpuint (fc_sender_get_n_queued (sender), >=, 1);
  waiting = outbox_list ();
  g_assert_cmpuint (waiting->len, ==, fc_sender_get_n_queued (sender));
  g_assert_cmpuint (waiting->len, <=, fc_recording_get_n_chunks (recording));
  /* nothing sent, all of it queued (waiting in the Outbox), in the warning colour */
  g_assert_cmpuint (send_progress (window).waiting, ==, waiting->len);
  assert_send_label (window, 0, waiting->len, 0);
  g_assert_true (gtk_widget_has_css_class (bar_part (window, "send_label"), "warning"));
  fc_test_screenshot (GTK_WIDGET (window), "appitems-sending-rate-limited");
  g_clear_object (&sender);
  g_assert_cmpuint (relay_n_requests (relay), ==, n_chunks + 1);

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-outbox", NULL);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();

    for (guint i = 0; i < g_list_model_get_n_items (toplevels) && outbox == NULL; i++)
      {
        g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

        if (FC_IS_OUTBOX_WINDOW (toplevel))
          outbox = g_object_ref (FC_OUTBOX_WINDOW (toplevel));
      }
  }
  g_assert_nonnull (outbox);
  ITERATE_UNTIL (!fc_outbox_window_is_busy (outbox));
  for (guint i = 0; i < waiting->len; i++)
    g_assert_nonnull (fc_outbox_window_get_row (outbox, g_ptr_array_index (waiting, i)));

  toplevel_free (GTK_WINDOW (g_steal_pointer (&outbox)));
  g_settings_reset (settings, "send-while-recording");
  g_settings_reset (settings, "chunk-duration");
  g_settings_reset (settings, "dsn");
  window_free (window);
  end_target (pid);
  relay_free (relay);
}

/* Trace lifecycle: the Transaction toggle's root span is drawn on the span
 * track while it runs, and stays there once it ended. */
static void
test_transaction_track (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  GPid pid = spawn_threads_target ();
  GPtrArray *spans;
  const FcSpan *span;
  gint64 first, last;

  g_settings_set_string (settings, "profile-lifecycle", "trace");
  g_assert_true (fc_window_record_attach (window, pid, &error));
  g_assert_no_error (error);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "span_track"))));

  gtk_editable_set_text (GTK_EDITABLE (bar_part (window, "transaction_entry")), "checkout");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (bar_part (window, "transaction_button")), TRUE);
  ITERATE_UNTIL (n_session_samples (window) > 0);
  ITERATE_UNTIL (fc_session_get_spans (fc_window_get_session (window))->len == 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "span_track"))));
  span = g_ptr_array_index (fc_session_get_spans (fc_window_get_session (window)), 0);
  g_assert_true (span->open);
  g_assert_cmpstr (span->description, ==, "checkout");
  g_assert_null (span->parent_span_id);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (bar_part (window, "transaction_button")), FALSE);
  spans = fc_session_get_spans (fc_window_get_session (window));
  g_assert_cmpuint (spans->len, ==, 1);
  span = g_ptr_array_index (spans, 0);
  g_assert_false (span->open);
  g_assert_cmpint (span->end_ns, >, span->start_ns);
  /* on the samples' clock: the profiled samples fall inside it */
  fc_profile_get_time_range (fc_session_get_profile (fc_window_get_session (window)), &first, &last);
  g_assert_cmpint (first, >=, span->start_ns - 50 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (first, <=, span->end_ns);

  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-recording", NULL);
  ITERATE_UNTIL (live_done (window));
  /* the finished recording keeps its transaction on the track */
  ITERATE_UNTIL (fc_profile_is_finished (fc_session_get_profile (fc_window_get_session (window))));
  g_assert_cmpuint (fc_session_get_spans (fc_window_get_session (window))->len, ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "span_track"))));

  g_settings_reset (settings, "profile-lifecycle");
  window_free (window);
  end_target (pid);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/record/attach-live", test_attach_live);
  g_test_add_func ("/app/record/spawn-until-exit", test_spawn_until_exit);
  g_test_add_func ("/app/record/spawn-user-environ", test_spawn_user_environ);
  g_test_add_func ("/app/record/live-choices", test_live_choices);
  g_test_add_func ("/app/record/close-detaches", test_close_detaches);
  g_test_add_func ("/app/record/old-target-exits", test_old_target_exits);
  g_test_add_func ("/app/record/dialog", test_dialog);
  g_test_add_func ("/app/record/send-rejected", test_send_rejected);
  g_test_add_func ("/app/record/follow-switch", test_follow_switch);
  g_test_add_func ("/app/record/send-while-recording", test_send_while_recording);
  g_test_add_func ("/app/record/transaction-track", test_transaction_track);

  return fc_test_run ();
}
