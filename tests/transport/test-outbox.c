/* test-outbox.c - the on-disk outbox: order, durability, rejection, notes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-outbox.h"
#include "fc-outbox-entries.h"

/* where the envelopes of these tests go, as a transport records it */
#define DESTINATION "https://o1.ingest.sentry.io/42"

static GBytes *
envelope_n (guint n)
{
  g_autofree char *text = g_strdup_printf ("{}\n{\"type\":\"profile_chunk\",\"platform\":\"native\"}\n{\"n\":%u}\n", n);
  return g_bytes_new (text, strlen (text));
}

static void
test_outbox_order (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);
  g_autoptr(FcOutbox) again = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GPtrArray) listed_again = NULL;
  g_autofree char *expected_dir = g_build_filename (g_get_user_state_dir (), "flamecast", "outbox", NULL);

  g_assert_cmpstr (fc_outbox_get_dir (outbox), ==, expected_dir);

  listed = fc_outbox_list (outbox);
  g_assert_cmpuint (listed->len, ==, 0);
  g_clear_pointer (&listed, g_ptr_array_unref);

  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(GBytes) env = envelope_n (i);
      g_autoptr(GError) error = NULL;
      char *id = fc_outbox_add (outbox, env, DESTINATION, &error);

      g_assert_no_error (error);
      g_assert_nonnull (id);
      g_ptr_array_add (ids, id);
    }

  /* Oldest first, and the same for the next run. */
  listed = fc_outbox_list (outbox);
  again = fc_outbox_new (NULL);
  listed_again = fc_outbox_list (again);
  g_assert_cmpuint (listed->len, ==, 20);
  g_assert_cmpuint (listed_again->len, ==, 20);
  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(GBytes) expected = envelope_n (i);
      g_autoptr(GBytes) loaded = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *path = NULL;
      g_autofree char *name = NULL;
      struct stat st;

      g_assert_cmpstr (g_ptr_array_index (listed, i), ==, g_ptr_array_index (ids, i));
      g_assert_cmpstr (g_ptr_array_index (listed_again, i), ==, g_ptr_array_index (ids, i));

      loaded = fc_outbox_load (again, g_ptr_array_index (ids, i), &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (loaded, expected));

      name = g_strconcat (g_ptr_array_index (ids, i), ".envelope", NULL);
      path = g_build_filename (expected_dir, name, NULL);
      g_assert_cmpint (stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_mode & 0777, ==, 0600);
    }
}

static void
test_outbox_remove_and_reject (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);
  g_autoptr(GBytes) e1 = envelope_n (1);
  g_autoptr(GBytes) e2 = envelope_n (2);
  g_autoptr(GBytes) e3 = envelope_n (3);
  g_autoptr(GError) error = NULL;
  g_autofree char *id1 = fc_outbox_add (outbox, e1, DESTINATION, NULL);
  g_autofree char *id2 = fc_outbox_add (outbox, e2, DESTINATION, NULL);
  g_autofree char *id3 = fc_outbox_add (outbox, e3, DESTINATION, NULL);
  g_autoptr(GPtrArray) waiting = NULL;
  g_autoptr(GPtrArray) rejected = NULL;
  g_autoptr(GBytes) kept = NULL;
  g_autofree char *note = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *rejected_dir = NULL;
  g_autofree char *kept_path = NULL;
  g_autofree char *kept_name = NULL;
  gsize kept_len;
  g_autofree char *kept_data = NULL;

  fc_outbox_set_note (outbox, id1, "Sentry is unavailable (HTTP 503)");
  note = fc_outbox_dup_note (outbox, id1);
  g_assert_cmpstr (note, ==, "Sentry is unavailable (HTTP 503)");

  g_assert_true (fc_outbox_remove (outbox, id1, &error));
  g_assert_no_error (error);
  g_clear_pointer (&note, g_free);
  note = fc_outbox_dup_note (outbox, id1);
  g_assert_null (note);
  /* Removing twice is harmless: another process may have delivered it. */
  g_assert_true (fc_outbox_remove (outbox, id1, &error));

  g_assert_true (fc_outbox_reject (outbox, id2, "rejected by Sentry (HTTP 413: too large)", &error));
  g_assert_no_error (error);

  waiting = fc_outbox_list (outbox);
  g_assert_cmpuint (waiting->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (waiting, 0), ==, id3);

  rejected = fc_outbox_list_rejected (outbox);
  g_assert_cmpuint (rejected->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rejected, 0), ==, id2);
  reason = fc_outbox_dup_rejected_reason (outbox, id2);
  g_assert_cmpstr (reason, ==, "rejected by Sentry (HTTP 413: too large)");

  /* The rejected envelope is kept byte for byte. */
  rejected_dir = fc_outbox_dup_rejected_dir (outbox);
  kept_name = g_strconcat (id2, ".envelope", NULL);
  kept_path = g_build_filename (rejected_dir, kept_name, NULL);
  g_assert_true (g_file_get_contents (kept_path, &kept_data, &kept_len, NULL));
  kept = g_bytes_new (kept_data, kept_len);
  g_assert_true (g_bytes_equal (kept, e2));

  /* Gone from the outbox: loading it fails cleanly. */
  g_assert_null (fc_outbox_load (outbox, id2, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

static void
test_outbox_ignores_strangers (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);
  g_autoptr(GBytes) env = envelope_n (7);
  g_autofree char *id = fc_outbox_add (outbox, env, DESTINATION, NULL);
  g_autofree char *tmp = g_build_filename (fc_outbox_get_dir (outbox), "0000000000000001-000001-00000000.envelope.AB12CD", NULL);
  g_autofree char *other = g_build_filename (fc_outbox_get_dir (outbox), "README", NULL);
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GError) error = NULL;

  /* A half-written file from a crashed writer and unrelated files are not envelopes. */
  g_assert_true (g_file_set_contents (tmp, "{}\n{\"ty", -1, NULL));
  g_assert_true (g_file_set_contents (other, "hello", -1, NULL));

  listed = fc_outbox_list (outbox);
  g_assert_cmpuint (listed->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (listed, 0), ==, id);

  g_assert_null (fc_outbox_load (outbox, "../../etc/passwd", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_outbox_custom_dir (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "elsewhere", "box", NULL);
  g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);
  g_autoptr(GBytes) env = envelope_n (9);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = fc_outbox_add (outbox, env, DESTINATION, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  g_assert_nonnull (id);
}

static void
test_outbox_claim (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);
  /* A second FcOutbox on the same directory, as another process would have. */
  g_autoptr(FcOutbox) other = fc_outbox_new (NULL);
  g_autoptr(GBytes) e1 = envelope_n (1);
  g_autoptr(GBytes) e2 = envelope_n (2);
  g_autofree char *id1 = fc_outbox_add (outbox, e1, DESTINATION, NULL);
  g_autofree char *id2 = fc_outbox_add (outbox, e2, DESTINATION, NULL);
  g_autoptr(FcOutboxClaim) claim = NULL;
  g_autoptr(FcOutboxClaim) again = NULL;
  g_autoptr(GBytes) loaded = NULL;
  g_autoptr(GError) error = NULL;

  claim = fc_outbox_claim (outbox, id1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fc_outbox_claim_get_id (claim), ==, id1);
  loaded = fc_outbox_claim_load (claim, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (loaded, e1));

  /* Held: nobody else gets it, not even another claim in this process. */
  g_assert_null (fc_outbox_claim (other, id1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_null (fc_outbox_claim (outbox, id1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);

  /* Other entries are free. */
  again = fc_outbox_claim (other, id2, &error);
  g_assert_no_error (error);
  g_clear_pointer (&again, fc_outbox_claim_release);

  /* Released without removing it (left waiting): it can be claimed again. */
  g_clear_pointer (&claim, fc_outbox_claim_release);
  claim = fc_outbox_claim (other, id1, &error);
  g_assert_no_error (error);

  /* Delivered under the claim: once released, it is gone for everyone. */
  g_assert_true (fc_outbox_remove (other, id1, &error));
  g_clear_pointer (&claim, fc_outbox_claim_release);
  g_assert_null (fc_outbox_claim (outbox, id1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Moved aside under the claim: the same. */
  claim = fc_outbox_claim (outbox, id2, &error);
  g_assert_no_error (error);
  g_assert_true (fc_outbox_reject (outbox, id2, "rejected by Sentry (HTTP 400)", &error));
  g_clear_pointer (&claim, fc_outbox_claim_release);
  g_assert_null (fc_outbox_claim (other, id2, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* The claim is an flock: a process that dies holding it (killed, crashed)
 * loses it, and the entry goes with the next flush. */
static void
test_outbox_claim_dies_with_process (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);
  g_autoptr(GBytes) env = envelope_n (5);
  g_autofree char *id = fc_outbox_add (outbox, env, DESTINATION, NULL);
  g_autoptr(FcOutboxClaim) claim = NULL;
  g_autoptr(GError) error = NULL;
  int to_parent[2];
  int to_child[2];
  char c = 0;
  int status;
  pid_t pid;

  g_assert_cmpint (pipe (to_parent), ==, 0);
  g_assert_cmpint (pipe (to_child), ==, 0);

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      FcOutboxClaim *held = fc_outbox_claim (outbox, id, NULL);

      c = held != NULL ? 'y' : 'n';
      if (write (to_parent[1], &c, 1) != 1)
        _exit (3);
      /* Wait to be killed, holding the claim. */
      while (read (to_child[0], &c, 1) != 0)
        ;
      _exit (4);
    }

  g_assert_cmpint (read (to_parent[0], &c, 1), ==, 1);
  g_assert_cmpint (c, ==, 'y');

  g_assert_null (fc_outbox_claim (outbox, id, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);

  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  close (to_parent[0]);
  close (to_parent[1]);
  close (to_child[0]);
  close (to_child[1]);

  claim = fc_outbox_claim (outbox, id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (claim);
}

static void
test_outbox_user_decisions (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "decisions", NULL);
  g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);
  g_autoptr(GBytes) one = envelope_n (1);
  g_autoptr(GBytes) two = envelope_n (2);
  g_autoptr(GError) error = NULL;
  g_autofree char *a = fc_outbox_add (outbox, one, DESTINATION, &error);
  g_autofree char *b = fc_outbox_add (outbox, two, DESTINATION, &error);
  g_autoptr(GPtrArray) waiting = NULL;
  g_autoptr(GPtrArray) rejected = NULL;
  g_autoptr(GBytes) back = NULL;
  g_autofree char *reason = NULL;

  g_assert_no_error (error);

  /* a waiting envelope being sent is not discarded from under its sender */
  {
    g_autoptr(FcOutboxClaim) claim = fc_outbox_claim (outbox, a, &error);

    g_assert_no_error (error);
    g_assert_false (fc_outbox_discard (outbox, a, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
    g_clear_error (&error);
  }
  g_assert_true (fc_outbox_discard (outbox, a, &error));
  g_assert_no_error (error);
  g_assert_false (fc_outbox_discard (outbox, a, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* a rejected one goes back to the outbox with its ID, and its reason goes */
  g_assert_true (fc_outbox_reject (outbox, b, "HTTP 400: bad", &error));
  g_assert_no_error (error);
  g_assert_true (fc_outbox_requeue_rejected (outbox, b, &error));
  g_assert_no_error (error);
  waiting = fc_outbox_list (outbox);
  rejected = fc_outbox_list_rejected (outbox);
  g_assert_cmpuint (waiting->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (waiting, 0), ==, b);
  g_assert_cmpuint (rejected->len, ==, 0);
  reason = fc_outbox_dup_rejected_reason (outbox, b);
  g_assert_null (reason);
  back = fc_outbox_load (outbox, b, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (back, two));

  /* and a rejected one can be discarded for good */
  g_assert_true (fc_outbox_reject (outbox, b, "HTTP 400: bad", &error));
  g_assert_true (fc_outbox_discard_rejected (outbox, b, &error));
  g_assert_no_error (error);
  g_clear_pointer (&rejected, g_ptr_array_unref);
  rejected = fc_outbox_list_rejected (outbox);
  g_assert_cmpuint (rejected->len, ==, 0);
  g_assert_false (fc_outbox_discard_rejected (outbox, b, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* What the Outbox page and `send --list` show: waiting ones first, with
 * their note, destination, categories and rate limit; then the rejected
 * ones with the server's reason. */
static void
test_outbox_entries (void)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);
  g_autoptr(FcRateLimits) limits = fc_rate_limits_new (NULL);
  g_autoptr(GBytes) env1 = envelope_n (1);
  g_autoptr(GBytes) env2 = envelope_n (2);
  g_autoptr(GError) error = NULL;
  g_autofree char *id1 = fc_outbox_add (outbox, env1, DESTINATION, &error);
  g_autofree char *id2 = fc_outbox_add (outbox, env2, "https://o1.ingest.sentry.io/43", &error);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(FcOutboxClaim) claim = NULL;
  gint64 now = (gint64) 1700000000 * G_USEC_PER_SEC;
  const FcOutboxEntry *entry;

  g_assert_no_error (error);
  fc_outbox_set_note (outbox, id2, "rate limited by Sentry");
  fc_rate_limits_update (limits, 429, "60:profile_chunk:key", NULL, now);
  claim = fc_outbox_claim (outbox, id1, &error);
  g_assert_no_error (error);
  g_assert_true (fc_outbox_reject (outbox, id1, "rejected by Sentry (HTTP 400: bad)", &error));
  g_clear_pointer (&claim, fc_outbox_claim_release);

  entries = fc_outbox_list_entries (outbox, limits, now);
  g_assert_cmpuint (entries->len, ==, 2);
  entry = g_ptr_array_index (entries, 0);
  g_assert_cmpstr (entry->id, ==, id2);
  g_assert_false (entry->rejected);
  g_assert_cmpstr (entry->why, ==, "rate limited by Sentry");
  g_assert_cmpstr (entry->destination, ==, "https://o1.ingest.sentry.io/43");
  g_assert_cmpstr (entry->categories, ==, "profile_chunk");
  g_assert_cmpint (entry->size, ==, g_bytes_get_size (env2));
  g_assert_cmpint (entry->limited_until, ==, now + 60 * G_USEC_PER_SEC);

  entry = g_ptr_array_index (entries, 1);
  g_assert_cmpstr (entry->id, ==, id1);
  g_assert_true (entry->rejected);
  g_assert_cmpstr (entry->why, ==, "rejected by Sentry (HTTP 400: bad)");
  g_assert_cmpstr (entry->destination, ==, DESTINATION);
  /* a rejected one is not held back: it is not sent again by itself */
  g_assert_cmpint (entry->limited_until, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/outbox/order", test_outbox_order);
  g_test_add_func ("/core/outbox/entries", test_outbox_entries);
  g_test_add_func ("/core/outbox/remove-and-reject", test_outbox_remove_and_reject);
  g_test_add_func ("/core/outbox/ignores-strangers", test_outbox_ignores_strangers);
  g_test_add_func ("/core/outbox/custom-dir", test_outbox_custom_dir);
  g_test_add_func ("/core/outbox/claim", test_outbox_claim);
  g_test_add_func ("/core/outbox/claim-dies-with-process", test_outbox_claim_dies_with_process);
  g_test_add_func ("/core/outbox/user-decisions", test_outbox_user_decisions);

  return g_test_run ();
}
