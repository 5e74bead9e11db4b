/* test-outbox-crash.c - an outbox writer killed at any instant, and a full disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A child adds envelopes to the outbox as fast as it can and reports each ID
 * it got back (the envelope acknowledged as saved) through a pipe; the test
 * SIGKILLs it at a random instant, 500 times. After each kill every entry the
 * outbox lists must be a whole envelope the reader parses, byte for byte the
 * one written, and every acknowledged ID must be there.
 */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "flamecast.h"

/* where the envelopes of these tests go, as a transport records it */
#define DESTINATION "https://o1.ingest.sentry.io/42"

#define N_KILLS 500

/* A real chunk envelope with a 256 KiB attachment, so that a write takes long
 * enough to be interrupted in the middle. */
static GBytes *
big_envelope (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "good", "node-v2.envelope", NULL);
  g_autofree char *chunk = NULL;
  g_autofree char *pad = NULL;
  GString *s;
  gsize pad_len = 256 * 1024;

  g_assert_true (g_file_get_contents (path, &chunk, NULL, NULL));
  s = g_string_new (g_strchomp (chunk));
  pad = g_strnfill (pad_len, 'x');
  g_string_append_printf (s, "\n{\"type\":\"attachment\",\"length\":%" G_GSIZE_FORMAT ",\"filename\":\"pad.bin\"}\n%s\n",
                          pad_len, pad);
  return g_string_free_to_bytes (s);
}

G_GNUC_NORETURN static void
writer_child (const char *dir,
              GBytes     *envelope,
              int         ack_fd)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *id = fc_outbox_add (outbox, envelope, DESTINATION, &error);
      g_autofree char *line = NULL;

      if (id == NULL)
        {
          g_printerr ("writer: %s\n", error->message);
          _exit (3);
        }
      line = g_strconcat (id, "\n", NULL);
      if (write (ack_fd, line, strlen (line)) != (ssize_t) strlen (line))
        _exit (4);
    }
}

/* Reads the writer's acknowledgements into @all until one whole line is
 * there (or the writer is gone) */
static void
wait_first_ack (int      fd,
                GString *all)
{
  char buf[4096];
  ssize_t n;

  while (strchr (all->str, '\n') == NULL && (n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (all, buf, n);
}

static void
read_acks (int         fd,
           GString    *all,
           GHashTable *acked)
{
  g_auto(GStrv) lines = NULL;
  char buf[4096];
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (all, buf, n);

  lines = g_strsplit (all->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_hash_table_add (acked, g_strdup (lines[i]));
}

/* Only entries (with their destinations) and hidden temporaries: never a
 * half envelope under an entry's name. A destination alone is what a writer
 * killed between the two leaves: nothing lists it. */
static void
assert_only_entries_and_temporaries (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = g_dir_open (dir, 0, &error);
  const char *name;

  /* a writer killed before its first write has not made the outbox yet */
  if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return;
  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    if (name[0] != '.' && !g_str_has_suffix (name, ".envelope") && !g_str_has_suffix (name, ".destination"))
      g_error ("unexpected file %s in the outbox", name);
}

static void
test_outbox_writer_killed (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "crash-outbox", NULL);
  g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);
  g_autoptr(GBytes) envelope = big_envelope ();
  g_autoptr(GHashTable) acked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint total_entries = 0;
  guint kills_mid_write = 0;

  for (guint round = 0; round < N_KILLS; round++)
    {
      g_autoptr(GPtrArray) ids = NULL;
      g_autoptr(GString) acks = NULL;
      int fds[2];
      pid_t pid;
      int status;

      g_assert_cmpint (pipe2 (fds, O_CLOEXEC), ==, 0);
      pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          close (fds[0]);
          writer_child (dir, envelope, fds[1]);
        }
      close (fds[1]);

      /* Anywhere from before the first write to a few envelopes in: what must hold after the
       * crash holds wherever it lands (the point comes from the test's seed, --seed repeats it).
       * Every tenth round lands after a first envelope was saved, however slow the disk, so
       * that the checks below always see whole entries. */
      acks = g_string_new (NULL);
      if (round % 10 == 0)
        wait_first_ack (fds[0], acks);
      g_usleep (g_test_rand_int_range (0, 15000));
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);

      g_hash_table_remove_all (acked);
      read_acks (fds[0], acks, acked);
      close (fds[0]);

      assert_only_entries_and_temporaries (dir);
      ids = fc_outbox_list (outbox);
      if (ids->len > g_hash_table_size (acked))
        kills_mid_write++;   /* renamed but killed before it could say so: whole anyway */

      for (guint i = 0; i < ids->len; i++)
        {
          const char *id = g_ptr_array_index (ids, i);
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) loaded = fc_outbox_load (outbox, id, &error);
          g_autoptr(FcDocument) doc = NULL;

          g_assert_no_error (error);
          g_assert_true (g_bytes_equal (loaded, envelope));
          doc = fc_reader_load_bytes (loaded, FC_READ_FLAGS_NONE, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
        }

      /* Nothing acknowledged is lost. */
      {
        GHashTableIter iter;
        gpointer id;

        g_hash_table_iter_init (&iter, acked);
        while (g_hash_table_iter_next (&iter, &id, NULL))
          if (!g_ptr_array_find_with_equal_func (ids, id, g_str_equal, NULL))
            g_error ("round %u: envelope %s was acknowledged as saved but is not in the outbox", round, (char *) id);
      }

      total_entries += ids->len;
      for (guint i = 0; i < ids->len; i++)
        g_assert_true (fc_outbox_remove (outbox, g_ptr_array_index (ids, i), NULL));
    }

  g_test_message ("%u kills, %u whole envelopes checked, %u renamed but not yet acknowledged",
                  N_KILLS, total_entries, kills_mid_write);
  g_assert_cmpuint (total_entries, >, 0);
}

/* In a child: a 64 KiB tmpfs in a mount namespace of its own when we may
 * mount (ENOSPC; root in CI), else a 64 KiB file-size limit (EFBIG). Either
 * way the add fails with an error that says the disk is full, and leaves
 * nothing behind. */
static void
full_disk_child (gboolean try_tmpfs)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "full-outbox", NULL);
  g_autoptr(FcOutbox) outbox = NULL;
  g_autoptr(GBytes) envelope = big_envelope ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(GDir) d = NULL;
  g_autofree char *id = NULL;
  gboolean tmpfs = FALSE;
  int expected_code;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  if (try_tmpfs && unshare (CLONE_NEWNS) == 0 &&
      mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
      mount ("fc-full", dir, "tmpfs", 0, "size=64k,mode=0700") == 0)
    tmpfs = TRUE;
  else
    {
      struct rlimit limit = { 64 * 1024, 64 * 1024 };

      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
    }
  g_printerr ("# full disk by %s\n", tmpfs ? "a 64 KiB tmpfs" : "RLIMIT_FSIZE");

  outbox = fc_outbox_new (dir);
  id = fc_outbox_add (outbox, envelope, DESTINATION, &error);
  g_assert_null (id);
  expected_code = tmpfs ? G_IO_ERROR_NO_SPACE : G_IO_ERROR_FAILED;   /* EFBIG has no GIOErrorEnum */
  g_assert_error (error, G_IO_ERROR, expected_code);
  g_assert_nonnull (strstr (error->message, "outbox"));
  g_assert_nonnull (strstr (error->message, "disk full"));
  g_printerr ("# %s\n", error->message);

  /* Nothing listed, and no temporary left to fill the disk further. */
  ids = fc_outbox_list (outbox);
  g_assert_cmpuint (ids->len, ==, 0);
  d = g_dir_open (dir, 0, NULL);
  g_assert_null (g_dir_read_name (d));
  _exit (0);
}

static void
test_outbox_full_disk (gconstpointer try_tmpfs)
{
  if (g_test_subprocess ())
    full_disk_child (GPOINTER_TO_INT (try_tmpfs));

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/outbox/writer-killed", test_outbox_writer_killed);
  g_test_add_data_func ("/core/outbox/full-disk/tmpfs", GINT_TO_POINTER (TRUE), test_outbox_full_disk);
  g_test_add_data_func ("/core/outbox/full-disk/file-size-limit", GINT_TO_POINTER (FALSE), test_outbox_full_disk);

  return g_test_run ();
}
