/* test-lifecycle.c - manual and trace lifecycles, session and span sampling
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "fc-lifecycle.h"
#include "fc-lifecycle-control.h"

#define DOMAIN "flamecast-lifecycle"

/* A stand-in for the recorder: logs what the lifecycle asked for, in order,
 * next to the span events, so chunk boundaries can be read off the log. */
typedef struct {
  GString *log;
  guint    starts;
  guint    stops;
  guint    ended;
  gboolean last_profiled;
} Recorder;

static void
start_cb (FcLifecycle *lifecycle,
          Recorder    *rec)
{
  rec->starts++;
  g_string_append (rec->log, "START ");
}

static void
stop_cb (FcLifecycle *lifecycle,
         Recorder    *rec)
{
  rec->stops++;
  g_string_append (rec->log, "STOP ");
}

static void
span_ended_cb (FcLifecycle      *lifecycle,
               const FcRootSpan *span,
               Recorder         *rec)
{
  rec->ended++;
  rec->last_profiled = span->profiled;
  g_assert_cmpint (span->end_ns, >=, span->start_ns);
  g_assert_cmpuint (strlen (span->trace_id), ==, 32);
  g_assert_cmpuint (strlen (span->span_id), ==, 16);
  g_string_append_printf (rec->log, "ended:%s%s ", span->name, span->profiled ? "(p)" : "");
}

static void
recorder_connect (Recorder    *rec,
                  FcLifecycle *lifecycle)
{
  memset (rec, 0, sizeof *rec);
  rec->log = g_string_new (NULL);
  g_signal_connect (lifecycle, "start-profiling", G_CALLBACK (start_cb), rec);
  g_signal_connect (lifecycle, "stop-profiling", G_CALLBACK (stop_cb), rec);
  g_signal_connect (lifecycle, "root-span-ended", G_CALLBACK (span_ended_cb), rec);
}

static void
recorder_clear (Recorder *rec)
{
  g_string_free (rec->log, TRUE);
}

/* Returns the queued values in turn, then 0.99. */
typedef struct {
  const double *values;
  guint         n;
  guint         next;
} Dice;

static double
dice_roll (gpointer data)
{
  Dice *dice = data;
  return dice->next < dice->n ? dice->values[dice->next++] : 0.99;
}

static void
test_lifecycle_session_sampling (void)
{
  /* 0.0 never profiles, 1.0 always does, with the real random source. */
  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(FcLifecycle) never = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_MANUAL, 0.0, 1.0);
      g_autoptr(FcLifecycle) always = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_MANUAL, 1.0, 1.0);

      g_assert_false (fc_lifecycle_get_session_sampled (never));
      g_assert_true (fc_lifecycle_get_session_sampled (always));
    }

  /* random() < rate, decided once. */
  {
    const double values[] = { 0.3 };
    Dice below = { values, 1, 0 };
    Dice equal = { values, 1, 0 };
    g_autoptr(FcLifecycle) a = fc_lifecycle_new_full (FC_PROFILE_LIFECYCLE_MANUAL, 0.5, 1.0, dice_roll, &below);
    g_autoptr(FcLifecycle) b = fc_lifecycle_new_full (FC_PROFILE_LIFECYCLE_MANUAL, 0.3, 1.0, dice_roll, &equal);

    g_assert_true (fc_lifecycle_get_session_sampled (a));
    g_assert_false (fc_lifecycle_get_session_sampled (b));
    g_assert_cmpuint (below.next, ==, 1);
    g_assert_cmpuint (equal.next, ==, 1);
  }
}

static void
test_lifecycle_manual (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_MANUAL, 1.0, 1.0);
  Recorder rec;
  guint span;

  recorder_connect (&rec, lifecycle);

  g_assert_false (fc_lifecycle_get_running (lifecycle));
  g_assert_true (fc_lifecycle_start_profiler (lifecycle));
  g_assert_true (fc_lifecycle_get_running (lifecycle));

  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*already running*");
  g_assert_false (fc_lifecycle_start_profiler (lifecycle));
  g_test_assert_expected_messages ();
  g_assert_cmpuint (rec.starts, ==, 1);

  /* Spans do not drive a manual profiler, but know whether it ran. */
  span = fc_lifecycle_begin_root_span (lifecycle, "checkout");
  g_assert_cmpuint (span, !=, 0);
  g_assert_true (fc_lifecycle_end_root_span (lifecycle, span));
  g_assert_true (fc_lifecycle_get_running (lifecycle));
  g_assert_true (rec.last_profiled);

  g_assert_true (fc_lifecycle_stop_profiler (lifecycle));
  g_assert_false (fc_lifecycle_stop_profiler (lifecycle));
  g_assert_cmpuint (rec.stops, ==, 1);

  span = fc_lifecycle_begin_root_span (lifecycle, "idle");
  fc_lifecycle_end_root_span (lifecycle, span);
  g_assert_false (rec.last_profiled);

  /* Start again after a stop: a new run (a new chunk). */
  g_assert_true (fc_lifecycle_start_profiler (lifecycle));
  g_assert_true (fc_lifecycle_stop_profiler (lifecycle));
  g_assert_cmpstr (rec.log->str, ==, "START ended:checkout(p) STOP ended:idle START STOP ");

  recorder_clear (&rec);
}

static void
test_lifecycle_manual_unsampled (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_MANUAL, 0.0, 1.0);
  Recorder rec;

  recorder_connect (&rec, lifecycle);

  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*not sampled*");
  g_assert_false (fc_lifecycle_start_profiler (lifecycle));
  g_test_assert_expected_messages ();
  g_assert_false (fc_lifecycle_get_running (lifecycle));
  g_assert_cmpuint (rec.starts, ==, 0);

  recorder_clear (&rec);
}

static void
test_lifecycle_trace_overlapping (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_TRACE, 1.0, 1.0);
  Recorder rec;
  guint a, b, c;

  recorder_connect (&rec, lifecycle);

  /* start/stop are no-ops with a warning in trace mode. */
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*start_profiler() ignored*trace*");
  g_assert_false (fc_lifecycle_start_profiler (lifecycle));
  g_test_assert_expected_messages ();
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*stop_profiler() ignored*");
  g_assert_false (fc_lifecycle_stop_profiler (lifecycle));
  g_test_assert_expected_messages ();
  g_assert_false (fc_lifecycle_get_running (lifecycle));

  /* a and b overlap; the profiler runs from a's begin to b's end. */
  a = fc_lifecycle_begin_root_span (lifecycle, "a");
  g_assert_true (fc_lifecycle_get_running (lifecycle));
  b = fc_lifecycle_begin_root_span (lifecycle, "b");
  g_assert_true (fc_lifecycle_end_root_span (lifecycle, a));
  g_assert_true (fc_lifecycle_get_running (lifecycle));
  g_assert_true (fc_lifecycle_end_root_span (lifecycle, b));
  g_assert_false (fc_lifecycle_get_running (lifecycle));

  /* The chunk is finished (STOP) before the span that ended it is reported,
   * so its transaction can point at a complete chunk. A later span starts a
   * new run: the boundary of the next chunk. */
  c = fc_lifecycle_begin_root_span (lifecycle, "c");
  g_assert_true (fc_lifecycle_end_root_span (lifecycle, c));

  g_assert_cmpstr (rec.log->str, ==, "START ended:a(p) STOP ended:b(p) START STOP ended:c(p) ");
  g_assert_cmpuint (rec.starts, ==, 2);
  g_assert_cmpuint (rec.stops, ==, 2);

  /* Ending twice is refused. */
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*not active*");
  g_assert_false (fc_lifecycle_end_root_span (lifecycle, c));
  g_test_assert_expected_messages ();

  recorder_clear (&rec);
}

static void
test_lifecycle_trace_span_sampling (void)
{
  /* session 0.1 < 0.5: sampled; then spans roll 0.9 (no), 0.2 (yes), 0.7 (no). */
  const double values[] = { 0.1, 0.9, 0.2, 0.7 };
  Dice dice = { values, G_N_ELEMENTS (values), 0 };
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new_full (FC_PROFILE_LIFECYCLE_TRACE, 0.5, 0.5, dice_roll, &dice);
  Recorder rec;
  guint unsampled, sampled, late;

  recorder_connect (&rec, lifecycle);
  g_assert_true (fc_lifecycle_get_session_sampled (lifecycle));

  unsampled = fc_lifecycle_begin_root_span (lifecycle, "u");
  g_assert_false (fc_lifecycle_get_root_span (lifecycle, unsampled)->sampled);
  g_assert_false (fc_lifecycle_get_running (lifecycle));

  sampled = fc_lifecycle_begin_root_span (lifecycle, "s");
  g_assert_true (fc_lifecycle_get_root_span (lifecycle, sampled)->sampled);
  g_assert_true (fc_lifecycle_get_running (lifecycle));

  late = fc_lifecycle_begin_root_span (lifecycle, "late");
  g_assert_false (fc_lifecycle_get_root_span (lifecycle, late)->sampled);

  /* Unsampled spans ending do not stop the profiler... */
  fc_lifecycle_end_root_span (lifecycle, unsampled);
  g_assert_true (fc_lifecycle_get_running (lifecycle));
  /* ...the last sampled one does, even with unsampled spans still open. */
  fc_lifecycle_end_root_span (lifecycle, sampled);
  g_assert_false (fc_lifecycle_get_running (lifecycle));
  g_assert_cmpuint (fc_lifecycle_get_n_active_spans (lifecycle), ==, 1);
  fc_lifecycle_end_all (lifecycle);
  g_assert_cmpuint (fc_lifecycle_get_n_active_spans (lifecycle), ==, 0);

  g_assert_cmpstr (rec.log->str, ==, "START ended:u(p) STOP ended:s(p) ended:late(p) ");
  recorder_clear (&rec);
}

static void
test_lifecycle_trace_unsampled_session (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_TRACE, 0.0, 1.0);
  Recorder rec;

  recorder_connect (&rec, lifecycle);

  for (guint i = 0; i < 50; i++)
    {
      guint span = fc_lifecycle_begin_root_span (lifecycle, "t");
      g_assert_true (fc_lifecycle_get_root_span (lifecycle, span)->sampled);
      fc_lifecycle_end_root_span (lifecycle, span);
    }

  g_assert_cmpuint (rec.starts, ==, 0);
  g_assert_cmpuint (rec.ended, ==, 50);
  g_assert_false (rec.last_profiled);
  recorder_clear (&rec);
}

static void
test_lifecycle_trace_needs_tracing (void)
{
  g_autoptr(FcLifecycle) lifecycle = NULL;
  guint span;

  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*traces_sample_rate is 0*");
  lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_TRACE, 1.0, 0.0);
  g_test_assert_expected_messages ();

  span = fc_lifecycle_begin_root_span (lifecycle, "t");
  g_assert_false (fc_lifecycle_get_running (lifecycle));
  fc_lifecycle_end_root_span (lifecycle, span);
}

static void
test_lifecycle_find_by_name (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_TRACE, 1.0, 1.0);
  guint first = fc_lifecycle_begin_root_span (lifecycle, "same");
  guint second = fc_lifecycle_begin_root_span (lifecycle, "same");
  guint other = fc_lifecycle_begin_root_span (lifecycle, "other");

  /* Most recent first, as the control FIFO's "end NAME" needs. */
  g_assert_cmpuint (fc_lifecycle_find_root_span (lifecycle, "same"), ==, second);
  fc_lifecycle_end_root_span (lifecycle, second);
  g_assert_cmpuint (fc_lifecycle_find_root_span (lifecycle, "same"), ==, first);
  g_assert_cmpuint (fc_lifecycle_find_root_span (lifecycle, "other"), ==, other);
  g_assert_cmpuint (fc_lifecycle_find_root_span (lifecycle, "missing"), ==, 0);

  fc_lifecycle_end_all (lifecycle);
  g_assert_false (fc_lifecycle_get_running (lifecycle));
}

static void
test_lifecycle_from_settings (void)
{
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autoptr(FcLifecycle) lifecycle = NULL;

  g_object_set (settings,
                "profile-lifecycle", FC_PROFILE_LIFECYCLE_TRACE,
                "profile-session-sample-rate", 0.0,
                NULL);
  lifecycle = fc_lifecycle_new_for_settings (settings);
  g_assert_cmpint (fc_lifecycle_get_mode (lifecycle), ==, FC_PROFILE_LIFECYCLE_TRACE);
  g_assert_false (fc_lifecycle_get_session_sampled (lifecycle));
}

static void
write_all (int         fd,
           const char *text)
{
  gsize len = strlen (text);

  while (len > 0)
    {
      gssize n = write (fd, text, len);

      g_assert_cmpint (n, >, 0);
      text += n;
      len -= n;
    }
}

static void
test_lifecycle_control_fifo (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_TRACE, 1.0, 1.0);
  g_autoptr(FcLifecycleControl) control = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("fc-control-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "control", NULL);
  Recorder rec;
  struct stat st;
  int fd;

  recorder_connect (&rec, lifecycle);

  control = fc_lifecycle_control_new (lifecycle, path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  /* A script brackets its scenarios; it may close and reopen the FIFO. */
  fd = open (path, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  write_all (fd, "begin checkout\nbegin search\n# a comment\n\n");
  close (fd);
  fd = open (path, O_WRONLY | O_CLOEXEC);
  write_all (fd, "end checkout\nend search\n");
  close (fd);

  while (rec.ended < 2)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (rec.log->str, ==, "START ended:checkout(p) STOP ended:search(p) ");
  g_assert_cmpuint (fc_lifecycle_control_get_n_commands (control), ==, 4);

  /* Mistakes are reported, not fatal. */
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_WARNING, "*unknown command “dance”*");
  fd = open (path, O_WRONLY | O_CLOEXEC);
  write_all (fd, "dance\nbegin again\n");
  close (fd);
  while (rec.starts < 2)
    g_main_context_iteration (NULL, TRUE);
  g_test_assert_expected_messages ();

  /* What a program wrote just before exiting is handled by a drain, with
   * no main loop iteration. */
  fd = open (path, O_WRONLY | O_CLOEXEC);
  write_all (fd, "end again\n");
  close (fd);
  g_assert_cmpuint (rec.stops, ==, 1);
  fc_lifecycle_control_drain (control);
  g_assert_cmpuint (rec.stops, ==, 2);
  g_assert_false (fc_lifecycle_get_running (lifecycle));

  /* The FIFO it created goes away with it. */
  g_clear_object (&control);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_rmdir (dir);

  recorder_clear (&rec);
}

static void
test_lifecycle_control_commands (void)
{
  g_autoptr(FcLifecycle) lifecycle = fc_lifecycle_new (FC_PROFILE_LIFECYCLE_MANUAL, 1.0, 1.0);
  g_autofree char *dir = g_dir_make_tmp ("fc-control-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "control", NULL);
  g_autofree char *plain = g_build_filename (dir, "plain", NULL);
  g_autoptr(FcLifecycleControl) control = NULL;
  g_autoptr(FcLifecycleControl) not_fifo = NULL;
  g_autoptr(GError) error = NULL;

  control = fc_lifecycle_control_new (lifecycle, path, &error);
  g_assert_no_error (error);

  g_assert_true (fc_lifecycle_control_handle_line (control, "start", &error));
  g_assert_true (fc_lifecycle_get_running (lifecycle));
  g_assert_true (fc_lifecycle_control_handle_line (control, "  stop  ", &error));
  g_assert_false (fc_lifecycle_get_running (lifecycle));

  g_assert_false (fc_lifecycle_control_handle_line (control, "end nothing", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (fc_lifecycle_control_handle_line (control, "begin", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* A span name may contain spaces. */
  g_assert_true (fc_lifecycle_control_handle_line (control, "begin GET /api/items", &error));
  g_assert_cmpuint (fc_lifecycle_find_root_span (lifecycle, "GET /api/items"), !=, 0);

  /* A regular file is refused with advice. */
  g_assert_true (g_file_set_contents (plain, "", 0, NULL));
  not_fifo = fc_lifecycle_control_new (lifecycle, plain, &error);
  g_assert_null (not_fifo);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

  g_clear_object (&control);
  g_unlink (plain);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/lifecycle/session-sampling", test_lifecycle_session_sampling);
  g_test_add_func ("/core/lifecycle/manual", test_lifecycle_manual);
  g_test_add_func ("/core/lifecycle/manual-unsampled", test_lifecycle_manual_unsampled);
  g_test_add_func ("/core/lifecycle/trace-overlapping", test_lifecycle_trace_overlapping);
  g_test_add_func ("/core/lifecycle/trace-span-sampling", test_lifecycle_trace_span_sampling);
  g_test_add_func ("/core/lifecycle/trace-unsampled-session", test_lifecycle_trace_unsampled_session);
  g_test_add_func ("/core/lifecycle/trace-needs-tracing", test_lifecycle_trace_needs_tracing);
  g_test_add_func ("/core/lifecycle/find-by-name", test_lifecycle_find_by_name);
  g_test_add_func ("/core/lifecycle/from-settings", test_lifecycle_from_settings);
  g_test_add_func ("/core/lifecycle/control-fifo", test_lifecycle_control_fifo);
  g_test_add_func ("/core/lifecycle/control-commands", test_lifecycle_control_commands);

  return g_test_run ();
}
