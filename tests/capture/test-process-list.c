/* test-process-list.c - the processes the picker lists, read from the real /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-process-list.h"
#include "fc-test-util.h"

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

static guint
n_tasks (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task", pid);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* the list read again shows @pid busier than @before: the CPU time it reads grows */
static gboolean
cpu_ticks_grew (GPid    pid,
                guint64 before)
{
  g_autoptr(GPtrArray) list = fc_process_list_read ("/proc");
  FcProcessInfo *info = find (list, pid);

  g_assert_nonnull (info);
  return info->cpu_ticks > before;
}

static void
test_read (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  char *argv[] = { burner, "-s", "30", "-t", "3", NULL };
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  FcProcessInfo *self, *child;
  int status;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  /* its three threads started */
  fc_test_poll_until (n_tasks (pid) >= 3);

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
  fc_test_poll_until (cpu_ticks_grew (pid, child->cpu_ticks));

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);

  /* no such tree: an empty list */
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
