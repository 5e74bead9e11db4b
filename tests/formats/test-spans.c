/* test-spans.c - transactions linked from an envelope, as spans on the profile's clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"

#define S(s) ((gint64) ((s) * 1e9 + 0.5))

static FcDocument *
load (const char *relative)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", relative, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  FcDocument *doc = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);

  g_assert_no_error (error);
  return doc;
}

static void
assert_near (gint64 ns,
             gint64 expected)
{
  /* float seconds keep about a microsecond at today's epoch */
  g_assert_cmpint (ABS (ns - expected), <, 2000);
}

/* V2: the transaction whose contexts.profile.profiler_id is the chunk's, with
 * its spans nested by parent; an unrelated transaction stays out. */
static void
test_v2_profiler_id (void)
{
  g_autoptr(FcDocument) doc = load ("good/node-v2-spans.envelope");
  g_autoptr(GPtrArray) spans = fc_transaction_spans_for_document (doc);
  const FcSpan *tx, *db, *http, *ser;

  g_assert_cmpuint (fc_document_get_n_transactions (doc), ==, 2);
  g_assert_cmpuint (spans->len, ==, 4);

  /* by start time, the transaction first */
  tx = g_ptr_array_index (spans, 0);
  db = g_ptr_array_index (spans, 1);
  http = g_ptr_array_index (spans, 2);
  ser = g_ptr_array_index (spans, 3);
  g_assert_cmpstr (tx->description, ==, "job");
  g_assert_cmpstr (tx->op, ==, "job");
  g_assert_null (tx->parent_span_id);
  g_assert_cmpstr (tx->trace_id, ==, "cccccccccccccccccccccccccccccccc");
  g_assert_cmpuint (tx->depth, ==, 0);
  assert_near (tx->start_ns, S (1710805788.4));
  assert_near (tx->end_ns, S (1710805788.6));

  g_assert_cmpstr (db->op, ==, "db.query");
  g_assert_cmpstr (db->description, ==, "SELECT * FROM jobs");
  g_assert_cmpuint (db->depth, ==, 1);
  g_assert_cmpstr (http->op, ==, "http.client");
  g_assert_cmpuint (http->depth, ==, 1);
  /* an RFC 3339 start, a child of the http span */
  g_assert_cmpstr (ser->op, ==, "serialize");
  g_assert_cmpuint (ser->depth, ==, 2);
  assert_near (ser->start_ns, S (1710805788.508));
  assert_near (ser->end_ns, S (1710805788.515));
}

/* V1: the transaction whose event_id is the profile's transaction.id. */
static void
test_v1_transaction_id (void)
{
  g_autoptr(FcDocument) doc = load ("good/python-v1.envelope");
  g_autoptr(GPtrArray) spans = fc_transaction_spans_for_document (doc);
  const FcSpan *tx;

  g_assert_cmpuint (spans->len, ==, 1);
  tx = g_ptr_array_index (spans, 0);
  g_assert_cmpstr (tx->description, ==, "GET /");
  g_assert_cmpstr (tx->op, ==, "http.server");
  g_assert_cmpstr (tx->span_id, ==, "dddddddddddddddd");
  assert_near (tx->start_ns, S (1724762625.5));
  assert_near (tx->end_ns, S (1724762626.5));
}

/* A bare chunk has no transaction; a parent loop in a bad payload ends. */
static void
test_none_and_loops (void)
{
  g_autoptr(FcDocument) doc = load ("good/compact-v2.json");
  g_autoptr(GPtrArray) spans = fc_transaction_spans_for_document (doc);
  g_autoptr(GPtrArray) loop = fc_spans_new ();

  g_assert_cmpuint (spans->len, ==, 0);
  g_assert_cmpuint (fc_spans_arrange (spans), ==, 0);

  g_ptr_array_add (loop, fc_span_new ("a", "b", "t", NULL, NULL, 10, 20));
  g_ptr_array_add (loop, fc_span_new ("b", "a", "t", NULL, NULL, 5, 30));
  g_ptr_array_add (loop, fc_span_new ("c", NULL, "t", NULL, NULL, 0, 40));
  g_assert_cmpuint (fc_spans_arrange (loop), >=, 1);
  g_assert_cmpint (((FcSpan *) g_ptr_array_index (loop, 0))->start_ns, ==, 0);
  g_assert_cmpuint (((FcSpan *) g_ptr_array_index (loop, 0))->depth, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/spans/v2-profiler-id", test_v2_profiler_id);
  g_test_add_func ("/core/spans/v1-transaction-id", test_v1_transaction_id);
  g_test_add_func ("/core/spans/none-and-loops", test_none_and_loops);

  return g_test_run ();
}
