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
  g_assert_cmpint (child->ppid, ==, getpid ());
  g_assert_cmpstr (child->exe, ==, burner);
  g_assert_cmpuint (child->start_time, >=, self->start_time);
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

/* a command line of 100 KiB: the list keeps its first FC_PROCESS_CMDLINE_MAX bytes */
static void
test_long_cmdline (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *padding = g_strnfill (100 * 1024, 'x');
  char *argv[] = { burner, "-s", "30", padding, NULL };
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;
  FcProcessInfo *child;
  int status;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  fc_test_poll_until (n_tasks (pid) >= 1);
  list = fc_process_list_read ("/proc");
  child = find (list, pid);
  g_assert_nonnull (child);
  g_assert_cmpuint (strlen (child->cmdline), ==, FC_PROCESS_CMDLINE_MAX);
  g_assert_true (g_str_has_prefix (child->cmdline, burner));
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
}

static GVariant *
one_process (gint32      pid,
             gint32      ppid,
             const char *name,
             const char *cmdline)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE (FC_PROCESS_LIST_TYPE));
  g_variant_builder_add (&builder, "(iiussssuttb)", pid, ppid, 1000, "user", name, cmdline, "/bin/x", 1, 2, 3, FALSE);
  if (pid == 7)   /* listed twice */
    g_variant_builder_add (&builder, "(iiussssuttb)", pid, ppid, 1000, "user", name, cmdline, "/bin/x", 1, 2, 3,
                           FALSE);
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

static void
assert_rejected (GVariant   *variant,
                 const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = fc_process_list_from_variant (variant, &error);

  g_variant_unref (variant);
  g_assert_null (list);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, words));
}

/* the list over D-Bus (flamecast-helper's ListProcesses): the same fields back, text made valid
 * UTF-8, a list too large cut at its byte budget; every field checked on the way in */
static void
test_variant (void)
{
  g_autoptr(GPtrArray) list = fc_process_list_read ("/proc");
  g_autoptr(GPtrArray) back = NULL;
  g_autoptr(GPtrArray) odd = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_process_info_free);
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *too_long = g_strnfill (300, 'n');
  FcProcessInfo *info;
  guint left_out;

  variant = g_variant_ref_sink (fc_process_list_to_variant (list, G_MAXSIZE, &left_out));
  g_assert_cmpuint (left_out, ==, 0);
  back = fc_process_list_from_variant (variant, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, list->len);
  for (guint i = 0; i < list->len; i++)
    {
      FcProcessInfo *a = g_ptr_array_index (list, i), *b = g_ptr_array_index (back, i);

      g_assert_cmpint (a->pid, ==, b->pid);
      g_assert_cmpint (a->ppid, ==, b->ppid);
      g_assert_cmpuint (a->uid, ==, b->uid);
      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpstr (a->exe, ==, b->exe);
      g_assert_cmpuint (a->n_threads, ==, b->n_threads);
      g_assert_cmpuint (a->start_time, ==, b->start_time);
      g_assert_cmpint (a->kernel, ==, b->kernel);
    }
  g_clear_pointer (&variant, g_variant_unref);

  /* at most 200 bytes of text: the first process only, the rest counted */
  variant = g_variant_ref_sink (fc_process_list_to_variant (list, 200, &left_out));
  g_assert_cmpuint (g_variant_n_children (variant), <=, 1);
  g_assert_cmpuint (left_out, ==, list->len - g_variant_n_children (variant));
  g_clear_pointer (&variant, g_variant_unref);

  /* a command line is bytes: it crosses D-Bus as valid UTF-8 */
  info = g_new0 (FcProcessInfo, 1);
  info->pid = 5;
  info->name = g_strdup ("odd");
  info->cmdline = g_strdup ("prog \xff\xfe arg");
  g_ptr_array_add (odd, info);
  variant = g_variant_ref_sink (fc_process_list_to_variant (odd, G_MAXSIZE, NULL));
  g_clear_pointer (&back, g_ptr_array_unref);
  back = fc_process_list_from_variant (variant, &error);
  g_assert_no_error (error);
  info = g_ptr_array_index (back, 0);
  g_assert_true (g_utf8_validate (info->cmdline, -1, NULL));
  g_assert_true (g_str_has_prefix (info->cmdline, "prog "));
  g_assert_cmpstr (info->user, ==, "");
  g_assert_cmpstr (info->exe, ==, "");

  assert_rejected (g_variant_ref_sink (g_variant_new_string ("no list")), "a process list of type s");
  assert_rejected (one_process (0, 1, "init", "init"), "not a process id");
  assert_rejected (one_process (3, -1, "x", "x"), "not a process id");
  assert_rejected (one_process (7, 1, "twice", "twice"), "listed twice");
  assert_rejected (one_process (8, 1, too_long, "x"), "its name is longer than 256 bytes");
  assert_rejected (one_process (9, 1, "two\nlines", "x"), "its name is longer than 256 bytes or spans lines");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/process-list/read", test_read);
  g_test_add_func ("/core/process-list/long-cmdline", test_long_cmdline);
  g_test_add_func ("/core/process-list/variant", test_variant);
  return g_test_run ();
}
