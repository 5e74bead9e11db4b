/* test-children.c - child processes followed through fork and exec, in cpu and wall mode
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-recorder.h"

typedef struct {
  GMainLoop *loop;
  GPtrArray *chunks;
  gboolean   exited;
  int        status;
} Capture;

static char *
target_path (const char *name)
{
  const char *dir = g_getenv ("FC_TARGETS_DIR");
  g_assert_nonnull (dir);
  return g_strdup_printf ("%s/fc-target-%s", dir, name);
}

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                Capture    *cap)
{
  g_ptr_array_add (cap->chunks, g_object_ref (chunk));
}

static void
target_exited_cb (FcRecorder *recorder,
                  int         status,
                  Capture    *cap)
{
  cap->exited = TRUE;
  cap->status = status;
  g_main_loop_quit (cap->loop);
}

/* Counts the samples whose leaf function is @function, and checks that their thread's name
 * ends with its pid, "comm (pid)" */
static guint
count_leaf (GPtrArray  *chunks,
            const char *function,
            GHashTable *thread_names)
{
  guint n = 0;

  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);

      for (guint i = 0; i < fc_profile_get_n_threads (chunk); i++)
        {
          const FcThread *t = fc_profile_get_thread (chunk, i);
          if (t->name != FC_STRING_NONE)
            g_hash_table_add (thread_names, g_strdup (fc_profile_string (chunk, t->name)));
        }
      guint n_samples = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          const FcSample *s = &samples[i];
          const FcStackNode *leaf = fc_profile_get_stack (chunk, s->stack);
          const FcThread *t = fc_profile_get_thread (chunk, s->thread);
          g_autofree char *suffix = g_strdup_printf ("(%s)", fc_profile_string (chunk, t->tid));

          if (leaf->depth == 0 ||
              g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, leaf->frame)->function), function) != 0)
            continue;
          n++;
          /* the grandchild is its process's only thread: its tid is its pid */
          g_assert_true (t->name != FC_STRING_NONE);
          g_assert_true (g_str_has_suffix (fc_profile_string (chunk, t->name), suffix));
        }
    }
  return n;
}

/* The command's grandchild does the work, after fork, fork and exec: its function is sampled,
 * and the processes in between are recorded (waiting, in wall mode). */
static void
check_follow (FcSamplerMode mode,
              gboolean      force_ptrace)
{
  g_autofree char *forker = target_path ("forker");
  const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
  g_autofree char *script = g_strdup_printf ("'%s' 1.2; true", forker);
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autofree char *text = NULL;
  GHashTableIter iter;
  const char *name;
  guint n_burn, n_forker = 0;
  Capture cap = { 0 };

  argv[2] = script;
  cap.loop = g_main_loop_new (NULL, FALSE);
  cap.chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), &cap);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), &cap);
  g_object_set (recorder, "mode", mode, "frequency", 250, NULL);
  fc_recorder_set_follow_children (recorder, TRUE);
  fc_recorder_set_force_ptrace (recorder, force_ptrace);
  g_assert_true (fc_recorder_get_follow_children (recorder));

  g_assert_true (fc_recorder_spawn (recorder, argv, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_main_loop_run (cap.loop);
  summary = fc_recorder_dup_summary (recorder);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);

  g_assert_true (cap.exited);
  g_assert_true (WIFEXITED (cap.status));
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);

  n_burn = count_leaf (cap.chunks, "grandchild_burn", names);
  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    {
      g_test_message ("thread %s", name);
      if (g_str_has_prefix (name, "fc-target-forke ("))
        n_forker++;
    }
  g_test_message ("%u samples in grandchild_burn", n_burn);
  g_assert_cmpuint (n_burn, >, 0);
  if (mode == FC_SAMPLER_MODE_WALL)
    {
      /* the shell, the forker and its child wait: a thread each */
      g_assert_cmpuint (n_forker, ==, 2);
      g_assert_cmpuint (g_hash_table_size (names), >=, 4);
    }

  text = fc_capture_summary_format (summary);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "child processes followed"));
  g_assert_null (strstr (text, "use --follow-children"));

  g_main_loop_unref (cap.loop);
  g_ptr_array_unref (cap.chunks);
}

static void
test_follow_cpu (void)
{
  check_follow (FC_SAMPLER_MODE_CPU, FALSE);
}

static void
test_follow_wall (void)
{
  check_follow (FC_SAMPLER_MODE_WALL, FALSE);
}

static void
test_follow_wall_ptrace (void)
{
  check_follow (FC_SAMPLER_MODE_WALL, TRUE);
}

/* Without --follow-children, cpu mode on a command whose work is in a grandchild: the summary
 * says where the work is and what to do. */
static void
test_cli_cpu_hint (void)
{
  g_autofree char *forker = target_path ("forker");
  g_autofree char *tmp = g_dir_make_tmp ("fc-test-children-XXXXXX", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("FC_CLI");
  const char *argv[] = { cli, "record", "--mode", "cpu", "-o", tmp, "--", forker, "0.8", NULL };
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "the work is in child processes: use --follow-children"));
  {
    g_autoptr(GDir) d = g_dir_open (tmp, 0, NULL);
    const char *file;
    while (d != NULL && (file = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmp, file, NULL);
        g_unlink (path);
      }
  }
  g_rmdir (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/children/follow-cpu", test_follow_cpu);
  g_test_add_func ("/core/children/follow-wall", test_follow_wall);
  g_test_add_func ("/core/children/follow-wall-ptrace", test_follow_wall_ptrace);
  g_test_add_func ("/cli/record/children-cpu-hint", test_cli_cpu_hint);
  return g_test_run ();
}
