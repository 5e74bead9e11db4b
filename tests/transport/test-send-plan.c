/* test-send-plan.c - what `send` and the send dialog send: the plan, then each envelope's outcome at a fake Relay
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-reader.h"
#include "fc-send-plan.h"
#include "fc-test-relay.h"
#include "fc-transport-error.h"
#include "fc-validate.h"

/* A V2 chunk with two frames whose paths are @path1 and @path2, and a release unless @release is NULL. */
static FcDocument *
chunk_document (const char *path1,
                const char *path2,
                const char *release)
{
  g_autofree char *release_member = release ? g_strdup_printf ("\"release\":\"%s\",", release) : g_strdup ("");
  g_autofree char *text = g_strdup_printf (
    "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\","
    "\"profiler_id\":\"4d229f1d3807421ba62a5f8bc295d836\",%s\"environment\":\"test\","
    "\"client_sdk\":{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},\"platform\":\"python\","
    "\"profile\":{\"samples\":[{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5},"
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.51}],\"stacks\":[[0,1]],"
    "\"frames\":[{\"function\":\"work\",\"abs_path\":\"%s\"},{\"function\":\"main\",\"abs_path\":\"%s\"}],"
    "\"thread_metadata\":{\"1\":{\"name\":\"MainThread\"}}}}",
    release_member, path1, path2);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&text), strlen (text));
  g_autoptr(GError) error = NULL;
  FcDocument *document = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);

  g_assert_no_error (error);
  return document;
}

static gboolean
has_string (GPtrArray  *strings,
            const char *s)
{
  return g_ptr_array_find_with_equal_func (strings, s, g_str_equal, NULL);
}

static void
test_plan_chunk (void)
{
  g_autoptr(FcDocument) document = chunk_document ("/srv/app/work.py", "/srv/app/main.py", "shop@1.0");
  g_autoptr(FcSendPlan) plan = fc_send_plan_new (document, NULL, NULL, NULL, NULL);
  g_autoptr(GPtrArray) problems = fc_validate_document (document);
  const FcEnvelopeSummary *summary;
  const FcItemSummary *item;

  g_assert_nonnull (plan);
  g_assert_null (plan->invalid);
  g_assert_cmpuint (plan->envelopes->len, ==, 1);
  g_assert_cmpuint (plan->summaries->len, ==, 1);
  g_assert_cmpuint (plan->warnings->len, ==, fc_problems_count (problems, FC_PROBLEM_WARNING));

  summary = g_ptr_array_index (plan->summaries, 0);
  /* the summary describes the very bytes that go */
  g_assert_true (g_bytes_equal (summary->envelope, g_ptr_array_index (plan->envelopes, 0)));
  g_assert_cmpuint (summary->items->len, ==, 1);
  item = g_ptr_array_index (summary->items, 0);
  g_assert_cmpstr (item->type, ==, "profile_chunk");
  g_assert_cmpuint (item->limit, ==, FC_VALIDATE_MAX_PAYLOAD_SIZE);
  g_assert_cmpstr (summary->release, ==, "shop@1.0");
  g_assert_cmpstr (summary->platform, ==, "python");
  g_assert_true (has_string (summary->thread_names, "MainThread"));
  g_assert_true (has_string (summary->paths, "/srv/app/work.py"));
  g_assert_true (fc_envelope_summary_fits (summary));
}

/* Home stripped: "~/..." for the home and below it, never for a sibling
 * whose name starts the same ("/home/me" vs "/home/meg"). */
static void
test_plan_strip_home (void)
{
  const char *home = "/home/me";
  g_autoptr(FcDocument) document = chunk_document ("/home/me/src/work.py", "/home/meg/main.py", "shop@1.0");
  g_autoptr(FcSendPlan) plain = fc_send_plan_new (document, NULL, NULL, NULL, NULL);
  g_autoptr(FcSendPlan) plan = fc_send_plan_new (document, NULL, home, NULL, NULL);
  const FcEnvelopeSummary *summary = g_ptr_array_index (plan->summaries, 0);
  gsize len;
  const char *data = g_bytes_get_data (g_ptr_array_index (plan->envelopes, 0), &len);
  g_autofree char *text = g_strndup (data, len);

  g_assert_null (plan->invalid);
  g_assert_true (has_string (summary->paths, "~/src/work.py"));
  g_assert_true (has_string (summary->paths, "/home/meg/main.py"));
  g_assert_null (strstr (text, "/home/me/"));
  /* without the option, the paths go as they are */
  g_assert_true (has_string (((FcEnvelopeSummary *) g_ptr_array_index (plain->summaries, 0))->paths,
                             "/home/me/src/work.py"));
}

/* A chunk without a release is refused, with the validator's words, and
 * nothing can be put into an outbox from it. */
static void
test_plan_invalid (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcDocument) document = chunk_document ("/a.py", "/b.py", NULL);
  g_autoptr(FcSendPlan) plan = fc_send_plan_new (document, NULL, NULL, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(GPtrArray) waiting = NULL;

  g_assert_nonnull (plan);
  g_assert_nonnull (plan->invalid);
  g_assert_nonnull (strstr (plan->invalid, "release"));
  g_assert_cmpuint (plan->envelopes->len, ==, 0);

  ids = fc_send_plan_enqueue (plan, transport, &error);
  g_assert_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID);
  g_assert_null (ids);
  waiting = fc_outbox_list (fc_transport_get_outbox (transport));
  g_assert_cmpuint (waiting->len, ==, 0);
  relay_free (relay);
}

/* A cancelled plan is no plan. */
static void
test_plan_cancelled (void)
{
  g_autoptr(FcDocument) document = chunk_document ("/a.py", "/b.py", "shop@1.0");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(FcSendPlan) plan = NULL;

  g_cancellable_cancel (cancellable);
  plan = fc_send_plan_new (document, NULL, NULL, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (plan);
}

/* The plan's bytes reach Relay as they are, and the flush report tells
 * each of its envelopes' outcome by the IDs the plan's enqueue returned. */
static void
test_plan_deliver (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcDocument) document = chunk_document ("/home/me/a.py", "/b.py", "shop@1.0");
  g_autoptr(FcSendPlan) plan = fc_send_plan_new (document, NULL, "/home/me", NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ids = fc_send_plan_enqueue (plan, transport, &error);
  g_autoptr(FcFlushReport) report = NULL;
  const FcEnvelopeOutcome *outcome;

  g_assert_no_error (error);
  g_assert_cmpuint (ids->len, ==, 1);
  report = fc_transport_flush (transport, NULL, &error);
  g_assert_no_error (error);

  outcome = fc_flush_report_find_outcome (report, g_ptr_array_index (ids, 0));
  g_assert_nonnull (outcome);
  g_assert_cmpint (outcome->fate, ==, FC_ENVELOPE_DELIVERED);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_true (g_bytes_equal (g_ptr_array_index (relay->delivered, 0), g_ptr_array_index (plan->envelopes, 0)));
  relay_free (relay);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* 127.0.0.1 is reached directly: no proxy from the environment, and with
   * isolated dirs no GSettings schemas for the desktop's proxy resolver. */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);

  g_test_add_func ("/core/send-plan/chunk", test_plan_chunk);
  g_test_add_func ("/core/send-plan/strip-home", test_plan_strip_home);
  g_test_add_func ("/core/send-plan/invalid", test_plan_invalid);
  g_test_add_func ("/core/send-plan/cancelled", test_plan_cancelled);
  g_test_add_func ("/core/send-plan/deliver", test_plan_deliver);

  return g_test_run ();
}
