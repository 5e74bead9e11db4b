/* test-record-send.c - what the window records is what it sends and saves, through real keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A user's path, under Xvfb: record a real program (launched as
 * `flamecast -- CMD` does, or attached from the Record dialog), then
 * Ctrl+Shift+S and Return send it to a fake Relay on 127.0.0.1, or Ctrl+S
 * and Save save it. Every key goes through the X server (fc-test-keys.h)
 * to the application's own shortcuts. What Relay receives and what was saved
 * is checked with the project's reader and validator, and the saved files
 * with `flamecast-cli validate`.
 */

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>


#include "fc-app-settings.h"
#include "fc-application.h"
#include "fc-header-title.h"
#include "fc-reader.h"
#include "fc-record-dialog.h"
#include "fc-search-bar.h"
#include "fc-send-dialog.h"
#include "fc-test-keys.h"
#include "fc-test-relay.h"
#include "fc-test-screenshot.h"
#include "fc-validate.h"
#include "fc-view-util.h"
#include "fc-window.h"
#include "fc-test-util.h"

static GtkApplication *app;

static FcWindow *
window_new (void)
{
  FcWindow *window = g_object_ref (fc_window_new (app));

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
window_free (FcWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

/* The open toplevel of @type, or NULL (not referenced: it goes when it closes). */
static gpointer
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type) && gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        return toplevel;
    }
  return NULL;
}

/* The first widget of type @type under @widget, depth first. */
static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether the Record dialog closed; while it stays open, what it shows is logged each time it
 * changes, so a wait that ends in failure says where the dialog stood. */
static gboolean
record_dialog_closed (FcRecordDialog *dialog,
                      char          **last)
{
  GtkWidget *search, *focus;
  g_autofree char *state = NULL;

  if (dialog == NULL)
    return TRUE;
  search = find_descendant (GTK_WIDGET (dialog), GTK_TYPE_SEARCH_ENTRY);
  focus = gtk_root_get_focus (GTK_ROOT (dialog));
  state = g_strdup_printf ("record dialog: search \"%s\", %u shown, problem %s, %s, focus on %s",
                           search != NULL ? gtk_editable_get_text (GTK_EDITABLE (search)) : "(none)",
                           fc_record_dialog_get_n_shown (dialog),
                           fc_record_dialog_get_problem (dialog) != NULL ? fc_record_dialog_get_problem (dialog) : "none",
                           gtk_window_is_active (GTK_WINDOW (dialog)) ? "active" : "not active",
                           focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "nothing");
  if (g_strcmp0 (state, *last) != 0)
    {
      g_test_message ("%s", state);
      g_free (*last);
      *last = g_steal_pointer (&state);
    }
  return FALSE;
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

static void
set_dsn (Relay *relay)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *dsn = relay ? g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port) : g_strdup ("");

  g_settings_set_string (settings, "dsn", dsn);
}

/* The recording stopped and the window opened its chunks. */
static gboolean
recorded (FcWindow *window)
{
  FcRecording *recording = fc_window_get_recording (window);
  FcDocument *document = fc_session_get_document (fc_window_get_session (window));

  return recording != NULL && fc_recording_get_stopped (recording) &&
         fc_live_recording_get_state (fc_window_get_live_recording (window)) == FC_LIVE_STATE_STOPPED &&
         document != NULL && document == fc_recording_get_document (recording) &&
         fc_document_get_n_profiles (document) > 0 &&
         fc_profile_is_finished (fc_session_get_profile (fc_window_get_session (window)));
}

/* A chunk as Sentry needs it, with what the recorder knows of the program. */
static void
assert_recorded_chunk (FcProfile  *chunk,
                       const char *program)
{
  g_autofree char *release_prefix = g_strdup_printf ("%s@", program);
  GPtrArray *images = fc_profile_get_images (chunk);

  g_assert_cmpint (fc_profile_get_format (chunk), ==, FC_FORMAT_V2);
  g_assert_nonnull (fc_profile_get_chunk_id (chunk));
  g_assert_nonnull (fc_profile_get_profiler_id (chunk));
  g_assert_nonnull (fc_profile_get_client_sdk (chunk));
  g_assert_cmpstr (fc_profile_get_client_sdk (chunk)->name, ==, "flamecast");
  /* the default release: <exe>@<build id> */
  g_assert_true (g_str_has_prefix (fc_profile_get_release (chunk), release_prefix));
  g_assert_cmpuint (strlen (fc_profile_get_release (chunk)), >, strlen (release_prefix));
  g_assert_nonnull (images);
  g_assert_cmpuint (images->len, >, 0);
  for (guint i = 0; i < images->len; i++)
    g_assert_cmpstr (((FcDebugImage *) g_ptr_array_index (images, i))->type, ==, "symbolic");
}

/* Every envelope the fake Relay took: one valid profile_chunk each (by the
 * project's reader and validator), of @program, with release and debug images. */
static void
assert_delivered (Relay      *relay,
                  guint       n,
                  const char *program)
{
  g_mutex_lock (&relay->mutex);
  g_assert_cmpuint (relay->delivered->len, ==, n);
  for (guint i = 0; i < relay->delivered->len; i++)
    {
      GBytes *envelope = g_ptr_array_index (relay->delivered, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(FcDocument) document = fc_reader_load_bytes (envelope, FC_READ_FLAGS_NONE, &error);
      g_autoptr(GPtrArray) problems = NULL;
      g_autofree char *text = g_strndup (g_bytes_get_data (envelope, NULL), g_bytes_get_size (envelope));

      g_assert_no_error (error);
      g_assert_cmpint (fc_document_get_kind (document), ==, FC_DOCUMENT_ENVELOPE);
      g_assert_cmpuint (fc_document_get_n_profiles (document), ==, 1);
      g_assert_nonnull (strstr (text, "\"type\":\"profile_chunk\""));
      problems = fc_validate_document (document);
      for (guint j = 0; j < problems->len; j++)
        {
          g_autofree char *line = fc_problem_to_string (g_ptr_array_index (problems, j));

          g_test_message ("envelope %u: %s", i + 1, line);
        }
      g_assert_false (fc_problems_has_errors (problems));
      assert_recorded_chunk (fc_document_get_profile (document, 0), program);
    }
  g_mutex_unlock (&relay->mutex);
}

/* Ctrl+Shift+S on @window, then Return once the preview is built: the
 * number of envelopes the dialog sent, all delivered. */
static guint
send_with_keys (FcWindow *window,
                Relay    *relay)
{
  FcSendDialog *dialog = NULL;
  GtkLabel *validation;
  guint before = n_delivered (relay);
  guint n;

  fc_test_keys_focus (GTK_WINDOW (window));
  fc_test_keys_press ("<Control><Shift>s");
  fc_test_spin_until ((dialog = find_toplevel (FC_TYPE_SEND_DIALOG)) != NULL);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  fc_test_spin_until (!fc_send_dialog_is_busy (dialog) && g_strcmp0 (fc_send_dialog_get_page (dialog), "preview") == 0);
  validation = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (dialog), FC_TYPE_SEND_DIALOG, "validation_label"));
  g_test_message ("preview: %s", gtk_label_get_text (validation));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (validation), "Valid"));
  n = fc_send_dialog_get_envelopes (dialog)->len;
  g_assert_cmpuint (n, >, 0);
  fc_test_screenshot (GTK_WIDGET (dialog), "appitems-send-recording");

  /* Return: the Send button has the focus */
  fc_test_keys_focus (GTK_WINDOW (dialog));
  fc_test_keys_press ("Return");
  fc_test_spin_until (dialog == NULL);
  fc_test_poll_until (n_delivered (relay) == before + n);
  return n;
}

/* flamecast -- CMD: the program runs to its end, Ctrl+Shift+S, Return. */
static void
test_launch_send (void)
{
  Relay *relay = relay_new ();
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "1.5", "-t", "2", NULL };
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  FcRecording *recording;
  guint n;

  set_dsn (relay);
  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  recording = fc_window_get_recording (window);
  fc_test_spin_until (recorded (window));
  g_assert_true (fc_recording_get_target_exited (recording, NULL));
  g_assert_cmpuint (fc_document_get_n_profiles (fc_recording_get_document (recording)), ==,
                    fc_recording_get_n_chunks (recording));

  n = send_with_keys (window, relay);
  g_assert_cmpuint (n, ==, fc_recording_get_n_chunks (recording));
  assert_delivered (relay, n, "fc-target-burner");

  set_dsn (NULL);
  window_free (window);
  relay_free (relay);
}

/* Attach from the Record dialog (Ctrl+R, the pid typed, Return), Stop
 * (Ctrl+.), Ctrl+Shift+S, Return. */
static void
test_attach_send (void)
{
  Relay *relay = relay_new ();
  g_autofree char *threads = fc_test_target_path ("threads");
  char *argv[] = { threads, "3600", NULL };  /* killed by the test, however slow the machine */
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *dialog_state = NULL;
  FcRecordDialog *dialog = NULL;
  GtkEditable *search;
  FcRecording *recording;
  int status;
  guint n;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                fc_test_die_with_test, NULL, &pid, &error));
  g_assert_no_error (error);
  set_dsn (relay);

  fc_test_keys_focus (GTK_WINDOW (window));
  fc_test_keys_press ("<Control>r");
  fc_test_spin_until ((dialog = find_toplevel (FC_TYPE_RECORD_DIALOG)) != NULL);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  fc_test_spin_until (fc_record_dialog_get_n_shown (dialog) > 1);
  /* the search has the focus: the pid narrows the list, Return records it */
  fc_test_keys_focus (GTK_WINDOW (dialog));
  pid_text = g_strdup_printf ("%d", pid);
  fc_test_keys_type (pid_text);
  /* every key reached the search before Return (the list narrowed to what was typed): the
   * selection below is then the one Return finds, whatever the X server's pace */
  search = GTK_EDITABLE (find_descendant (GTK_WIDGET (dialog), GTK_TYPE_SEARCH_ENTRY));
  fc_test_spin_until (g_strcmp0 (gtk_editable_get_text (search), pid_text) == 0);
  fc_test_spin_until (fc_record_dialog_select_pid (dialog, pid));
  fc_test_keys_press ("Return");
  fc_test_spin_until (record_dialog_closed (dialog, &dialog_state));
  g_assert_true (fc_window_is_recording (window));
  recording = fc_window_get_recording (window);
  g_assert_cmpint (fc_recording_get_pid (recording), ==, pid);

  /* enough for a chunk Relay keeps: many samples of each worker */
  fc_test_spin_until (fc_recorder_get_n_samples (fc_recording_get_recorder (recording)) >= 300);
  fc_test_keys_focus (GTK_WINDOW (window));
  fc_test_keys_press ("<Control>period");
  fc_test_spin_until (recorded (window));
  g_assert_false (fc_recording_get_target_exited (recording, NULL));

  n = send_with_keys (window, relay);
  g_assert_cmpuint (n, ==, fc_recording_get_n_chunks (recording));
  assert_delivered (relay, n, "fc-target-threads");

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  set_dsn (NULL);
  window_free (window);
  relay_free (relay);
}

/* flamecast-cli validate FILE: exit status 0 */
static void
assert_cli_validates (const char *path)
{
  const char *cli = g_getenv ("FC_CLI");
  const char *argv[] = { cli, "validate", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("flamecast-cli validate %s: %s%s", path, out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static gboolean
accept_cb (gpointer user_data)
{
  GtkFileChooser **chooser = user_data;

  if (*chooser != NULL && gtk_widget_get_visible (GTK_WIDGET (*chooser)))
    gtk_dialog_response (GTK_DIALOG (*chooser), GTK_RESPONSE_ACCEPT);
  return G_SOURCE_CONTINUE;
}

/* Ctrl+S, Save: the recording's chunks as files that `flamecast-cli
 * validate` passes; one reopened goes to Sentry as it is. */
static void
test_save_validates (void)
{
  Relay *relay = relay_new ();
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "1.5", "-t", "2", NULL };
  g_autofree char *dir = fc_test_make_tmp_dir ("flamecast-test-save");
  g_autofree char *typed = g_build_filename (dir, "profile.chunk.json", NULL);
  g_autofree char *first = NULL;
  g_autoptr(GFile) first_file = NULL;
  FcWindow *window = window_new ();
  FcWindow *reopened;
  g_autoptr(GError) error = NULL;
  GtkFileChooser *chooser = NULL;
  FcRecording *recording;
  guint n_chunks;
  guint accept;

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  recording = fc_window_get_recording (window);
  fc_test_spin_until (recorded (window));
  n_chunks = fc_recording_get_n_chunks (recording);

  fc_test_keys_focus (GTK_WINDOW (window));
  fc_test_keys_press ("<Control>s");
  /* no portal under Xvfb: GTK's own file chooser, named after the profile */
  fc_test_spin_until ((chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG)) != NULL);
  g_object_add_weak_pointer (G_OBJECT (chooser), (gpointer *) &chooser);
  {
    g_autofree char *name = gtk_file_chooser_get_current_name (chooser);

    g_assert_cmpstr (name, ==, "profile.chunk.json");
    /* a recording has no folder of its own: the user types the test's (never by moving the
     * whole process's working directory) */
    gtk_file_chooser_set_current_name (chooser, typed);
  }
  /* Save, as the button does; GTK's own chooser answers only once it has
   * read the folder (it drops an earlier answer), so again until it goes */
  accept = g_timeout_add (300, accept_cb, &chooser);
  fc_test_spin_until (chooser == NULL || !gtk_widget_get_visible (GTK_WIDGET (chooser)));
  g_source_remove (accept);
  /* one file a chunk, numbered as `flamecast-cli convert` numbers them when there are several:
   * profile.chunk.1.json, profile.chunk.2.json, ... */
  first = fc_export_numbered_path (typed, 1, n_chunks);
  first_file = g_file_new_for_path (first);
  for (guint i = 1; i <= n_chunks; i++)
    {
      g_autofree char *path = fc_export_numbered_path (typed, i, n_chunks);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(FcDocument) document = NULL;

      fc_test_poll_until (g_file_test (path, G_FILE_TEST_EXISTS));
      assert_cli_validates (path);
      document = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
      g_assert_no_error (error);
      assert_recorded_chunk (fc_document_get_profile (document, 0), "fc-target-burner");
    }

  /* reopened, it is sendable as it is */
  set_dsn (relay);
  reopened = window_new ();
  fc_window_open_file (reopened, first_file);
  fc_test_spin_until (!fc_window_is_loading (reopened) && fc_session_get_document (fc_window_get_session (reopened)));
  g_assert_cmpuint (send_with_keys (reopened, relay), ==, 1);
  assert_delivered (relay, 1, "fc-target-burner");

  fc_test_remove_tree (dir);
  set_dsn (NULL);
  window_free (reopened);
  window_free (window);
  relay_free (relay);
}

/* The frame of the session's profile named @function, or G_MAXUINT32. */
static guint32
frame_named (FcWindow   *window,
             const char *function)
{
  FcProfile *profile = fc_session_get_profile (fc_window_get_session (window));

  for (guint32 i = 0; i < fc_profile_get_n_frames (profile); i++)
    if (g_strcmp0 (fc_profile_string (profile, fc_profile_get_frame (profile, i)->function), function) == 0)
      return i;
  return G_MAXUINT32;
}

static gboolean
label_shows_all (GtkLabel *label)
{
  return gtk_widget_get_mapped (GTK_WIDGET (label)) &&
         !pango_layout_is_ellipsized (gtk_label_get_layout (label));
}

/* At the default width the header names the program in full, its pid
 * below. Escape in the search returns the keys to the flamechart: the next
 * "+" zooms, it does not type into the search. */
static void
test_title_and_escape (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "1", NULL };
  FcWindow *window = window_new ();
  FcSession *session = fc_window_get_session (window);
  g_autoptr(GError) error = NULL;
  g_autofree char *pid = NULL;
  GtkWidget *focus;
  gint64 width;
  int default_width, default_height;

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  pid = g_strdup_printf ("pid %d", fc_recording_get_pid (fc_window_get_recording (window)));
  fc_test_spin_until (recorded (window));

  gtk_window_get_default_size (GTK_WINDOW (window), &default_width, &default_height);
  g_assert_cmpint (default_width, ==, 1200);
  fc_test_wait_for_paint (GTK_WIDGET (window));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_header_title_get_part (fc_window_get_part (window, "header_title"), "file_label"))), ==, "fc-target-burner");
  fc_test_spin_until (label_shows_all (GTK_LABEL (fc_header_title_get_part (fc_window_get_part (window, "header_title"), "file_label"))));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_header_title_get_part (fc_window_get_part (window, "header_title"), "file_sublabel"))), ==, pid);
  fc_test_screenshot (GTK_WIDGET (window), "appitems-title");

  fc_test_keys_focus (GTK_WINDOW (window));
  fc_test_keys_press ("<Control>f");
  fc_test_spin_until ((focus = gtk_window_get_focus (GTK_WINDOW (window))) != NULL &&
                 gtk_widget_is_ancestor (focus, fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry")));
  fc_test_keys_type ("main");
  fc_test_spin_until (g_strcmp0 (fc_session_get_search_text (session), "main") == 0);
  fc_test_keys_press ("Escape");
  fc_test_spin_until (gtk_window_get_focus (GTK_WINDOW (window)) == GTK_WIDGET (fc_window_get_part (window, "flame_chart")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"))), ==, "");
  g_assert_cmpstr (fc_session_get_search_text (session), ==, "");

  width = fc_session_get_visible_end_ns (session) - fc_session_get_visible_begin_ns (session);
  fc_test_keys_press ("plus");
  fc_test_spin_until (fc_session_get_visible_end_ns (session) - fc_session_get_visible_begin_ns (session) < width);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"))), ==, "");

  window_free (window);
}

/* #18: a program with a short name ("mt") had its pid cut to the name's
 * width ("pi…6") and "All threads" cut beside it ("All threa…"): at the
 * default width the header shows the name, the pid and the thread in full,
 * without making the window wider or pushing the view switcher out. */
static void
test_title_short_name (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *dir = fc_test_make_tmp_dir ("flamecast-test-title");
  g_autofree char *program = g_build_filename (dir, "mt", NULL);
  g_autoptr(GFile) source = g_file_new_for_path (burner);
  g_autoptr(GFile) copy = g_file_new_for_path (program);
  const char *argv[] = { program, "-s", "1", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *pid = NULL;
  FcWindow *window;
  FcHeaderTitle *header_title;
  GtkWidget *selector_label;

  g_assert_true (g_file_copy (source, copy, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);

  window = window_new ();
  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  pid = g_strdup_printf ("pid %d", fc_recording_get_pid (fc_window_get_recording (window)));
  fc_test_spin_until (recorded (window));
  fc_session_set_thread (fc_window_get_session (window), FC_SESSION_ALL_THREADS);
  fc_test_wait_for_paint (GTK_WIDGET (window));

  header_title = fc_window_get_part (window, "header_title");
  selector_label = find_descendant (fc_window_get_part (window, "thread_selector"), GTK_TYPE_LABEL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_header_title_get_part (header_title, "file_label"))), ==, "mt");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_header_title_get_part (header_title, "file_sublabel"))), ==, pid);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (selector_label)), ==, "All threads");
  fc_test_spin_until (label_shows_all (GTK_LABEL (fc_header_title_get_part (header_title, "file_label"))) &&
                      label_shows_all (GTK_LABEL (fc_header_title_get_part (header_title, "file_sublabel"))) &&
                      label_shows_all (GTK_LABEL (selector_label)));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1200);
  /* and the view switcher keeps its place in the header */
  g_assert_false (adw_view_switcher_title_get_title_visible (fc_window_get_part (window, "switcher_title")));
  fc_test_screenshot (GTK_WIDGET (window), "appitems-title-short");

  window_free (window);
  fc_test_remove_tree (dir);
}

static void
warning_cb (FcLiveRecording *live,
            const char      *message,
            GString         *warnings)
{
  g_string_append_printf (warnings, "%s\n", message);
}

/* A shell pipeline launched from the window recorded a shell in wait4 and
 * said nothing of where the work went; the CLI's summary says it. The
 * window now says it too when the recording stops. */
static void
test_children_hint (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  /* "; true": the shell waits for the burner instead of becoming it. A fixed amount of work,
   * not a time: a loaded machine stretches the shell's own start and the burner's work alike, so
   * the hint's nine tenths in the wait hold (with "-s 1" the burner's second stayed a second). */
  const char *argv[] = { "/bin/sh", "-c", "\"$0\" -n 2000; true", burner, NULL };
  FcWindow *window = window_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) warnings = g_string_new (NULL);

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  /* what the window toasts; the toast itself goes after a few seconds */
  g_signal_connect (fc_window_get_live_recording (window), "warning", G_CALLBACK (warning_cb), warnings);
  fc_test_spin_until (recorded (window));
  g_assert_nonnull (strstr (warnings->str, "child processes, which were not recorded"));

  g_signal_handlers_disconnect_by_data (fc_window_get_live_recording (window), warnings);
  window_free (window);
}

/* A function the compiler inlined (lto_helper into lto_outer, across files
 * at link time) is one frame whose details say "inlined". */
static void
test_inlined_details (void)
{
  g_autofree char *lto = fc_test_target_path ("lto");
  const char *argv[] = { lto, "1", NULL };
  FcWindow *window = window_new ();
  FcSession *session = fc_window_get_session (window);
  g_autoptr(GError) error = NULL;
  g_autofree char *location = NULL;
  guint32 helper;
  guint n = 0;

  g_assert_true (fc_window_record_spawn (window, argv, NULL, &error));
  g_assert_no_error (error);
  fc_test_spin_until (recorded (window));
  helper = frame_named (window, "lto_helper");
  g_assert_cmpuint (helper, !=, G_MAXUINT32);
  for (guint32 i = 0; i < fc_profile_get_n_frames (fc_session_get_profile (session)); i++)
    n += g_strcmp0 (fc_profile_string (fc_session_get_profile (session),
                                       fc_profile_get_frame (fc_session_get_profile (session), i)->function),
                    "lto_helper") == 0;
  g_assert_cmpuint (n, ==, 1);
  location = fc_view_frame_location (fc_session_get_profile (session), helper, FC_STACK_EMPTY);
  g_test_message ("lto_helper: %s", location);
  g_assert_nonnull (strstr (location, "inlined"));

  adw_view_stack_set_visible_child_name (fc_window_get_part (window, "view_stack"), "flamegraph");
  fc_session_set_selected_frame (session, helper);
  fc_test_spin_until (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  fc_test_screenshot (GTK_WIDGET (window), "appitems-inlined");
  window_free (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* no session bus: the application registers on its own */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "disabled:", TRUE);
  gdk_set_allowed_backends ("x11");
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  /* the application's own shortcuts (Ctrl+Shift+S, Ctrl+S, Ctrl+R, Ctrl+.) */
  app = gtk_application_new ("io.github.flamecast.TestRecordSend", G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  fc_application_add_accels (app);

  g_test_add_func ("/app/record-send/launch-send", test_launch_send);
  g_test_add_func ("/app/record-send/attach-send", test_attach_send);
  g_test_add_func ("/app/record-send/save-validates", test_save_validates);
  g_test_add_func ("/app/record-send/title-and-escape", test_title_and_escape);
  g_test_add_func ("/app/record-send/title-short-name", test_title_short_name);
  g_test_add_func ("/app/record-send/children-hint", test_children_hint);
  g_test_add_func ("/app/record-send/inlined-details", test_inlined_details);

  ret = fc_test_run ();
  g_object_unref (app);
  return ret;
}
