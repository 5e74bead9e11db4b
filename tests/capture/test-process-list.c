/* test-process-list.c - the processes the picker lists, read from the real /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-process-list.h"

static FcProcessInfo *
find (GPtrArray *list,
      GPid       pid)
{
  for (guint i = 0; i < list->len; i++)
    {
      FcProcessInfo *info = g_ptr_array_index (list, i);
      if (info->pid == pid)
        return info;
    }
  return NULL;
}

static void
test_read (void)
{
  g_autofree char *burner = g_strdup_printf ("%s/fc-target-burner", g_getenv ("FC_TARGETS_DIR"));
  char *argv[] = { burner, "-s", "30", "-t", "3", NULL };
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  FcProcessInfo *self, *child, *later;
  int status;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  g_usleep (300 * 1000);

  before = fc_process_list_read ("/proc");
  self = find (before, getpid ());
  g_assert_nonnull (self);
  g_assert_cmpuint (self->uid, ==, geteuid ());
  g_assert_nonnull (self->user);
  g_assert_cmpuint (self->n_threads, >=, 1);
  g_assert_nonnull (strstr (self->cmdline, "test-process-list"));

  child = find (before, pid);
  g_assert_nonnull (child);
  g_assert_cmpstr (child->name, ==, "fc-target-burne");   /* comm: 15 characters */
  expected = g_strdup_printf ("%s -s 30 -t 3", burner);
  g_assert_cmpstr (child->cmdline, ==, expected);
  g_assert_cmpuint (child->n_threads, >=, 3);
  g_assert_false (child->kernel);
  g_assert_false (self->kernel);

  /* kernel threads are told apart (the picker hides them): kthreadd and its children */
  {
    g_autofree char *comm = NULL;
    FcProcessInfo *kthreadd = find (before, 2);

    if (g_file_get_contents ("/proc/2/comm", &comm, NULL, NULL) && g_str_has_prefix (comm, "kthreadd"))
      {
        g_assert_nonnull (kthreadd);
        g_assert_true (kthreadd->kernel);
      }
    else
      g_test_message ("no kthreadd in this pid namespace: kernel threads not checked");
  }

  /* by pid, and busy: its CPU time grows */
  for (guint i = 1; i < before->len; i++)
    g_assert_cmpint (((FcProcessInfo *) g_ptr_array_index (before, i - 1))->pid, <,
                     ((FcProcessInfo *) g_ptr_array_index (before, i))->pid);
  g_usleep (500 * 1000);
  after = fc_process_list_read ("/proc");
  later = find (after, pid);
  g_assert_nonnull (later);
  g_assert_cmpuint (later->cpu_ticks, >, child->cpu_ticks);

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);

  /* no such tree: an empty list */
  g_clear_pointer (&after, g_ptr_array_unref);
  after = fc_process_list_read ("/nonexistent");
  g_assert_cmpuint (after->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/process-list/read", test_read);
  return g_test_run ();
}
