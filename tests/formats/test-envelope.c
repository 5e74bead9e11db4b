/* test-envelope.c - one envelope framing for the reader, the transport, the writer and the sender
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "flamecast.h"
#include "fc-test-fixtures.h"

/* Frames @text with FcEnvelopeInput: the item types in order, joined by ','. */
static char *
frame (const char  *text,
       GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(FcEnvelopeInput) in = fc_envelope_input_new_for_bytes (bytes);
  g_autoptr(JsonObject) header = fc_envelope_input_read_header (in, error);
  g_autoptr(GString) types = g_string_new (NULL);

  if (header == NULL)
    return NULL;

  for (;;)
    {
      g_auto(FcEnvelopeItemHeader) item = { 0 };
      g_autoptr(GByteArray) payload = g_byte_array_new ();
      gboolean at_end = FALSE;

      if (!fc_envelope_input_next_item (in, &item, &at_end, error))
        return NULL;
      if (at_end)
        break;
      if (!fc_envelope_input_read_payload (in, &item, NULL, NULL, error))
        return NULL;
      g_string_append_printf (types, "%s%s", types->len ? "," : "", item.type);
    }
  return g_string_free (g_steal_pointer (&types), FALSE);
}

/* The reader takes (or refuses) exactly what the framer takes. */
static void
assert_reader_agrees (const char *text,
                      gboolean    ok)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &error);

  if (ok)
    g_assert_no_error (error);
  else
    g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
}

#define TXN "{\"type\":\"transaction\"}"

static void
test_framing (void)
{
  static const struct {
    const char *text;
    const char *types;   /* NULL: an envelope error */
    const char *message; /* a piece of the error message */
  } cases[] = {
    /* sentry-python: length, content_type, final newline */
    { "{}\n{\"type\":\"transaction\",\"length\":22}\n" TXN "\n", "transaction", NULL },
    /* profiling-node: no length, no final newline */
    { "{}\n{\"type\":\"transaction\"}\n" TXN, "transaction", NULL },
    { "{}\n{\"type\":\"transaction\"}\n" TXN "\n", "transaction", NULL },
    { "{}\n{\"type\":\"transaction\",\"length\":22}\n" TXN, "transaction", NULL },
    /* a length may hold newlines; white space between items is skipped */
    { "{}\n{\"type\":\"attachment\",\"length\":3}\na\nb\n\n{\"type\":\"attachment\",\"length\":0}\n",
      "attachment,attachment", NULL },
    { "{}\n{\"type\":\"attachment\",\"length\":null}\nabc\n", "attachment", NULL },
    { "{}\n", "", NULL },
    /* strict about lengths */
    { "{}\n{\"type\":\"profile\",\"length\":2}\n{}X", NULL, "expected a newline after the 2-byte payload" },
    { "{}\n{\"type\":\"profile\",\"length\":5}\n{}", NULL, "length 5 runs past the end of the data (3 bytes missing)" },
    { "{}\n{\"type\":\"profile\",\"length\":-1}\n{}", NULL, "\"length\" is not a non-negative integer" },
    { "{}\n{\"type\":\"profile\",\"length\":\"2\"}\n{}", NULL, "\"length\" is not a non-negative integer" },
    { "{}\n{\"type\":\"profile\",\"length\":1.5}\n{}", NULL, "\"length\" is not a non-negative integer" },
    { "{}\n{\"length\":2}\n{}", NULL, "envelope item 1: the item header has no \"type\" string" },
    { "{}\n{\"type\":\"\"}\n{}", NULL, "envelope item 1: the item header has no \"type\" string" },
    { "{}\n[1]\n{}", NULL, "envelope item 1: the item header is not a JSON object" },
    { "{}\n" TXN "\n{}\n{\"type\"", NULL, "envelope item 2: the item header is not a JSON object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *types = frame (cases[i].text, &error);

      g_test_message ("case %u: %s", i, cases[i].text);
      if (cases[i].types != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (types, ==, cases[i].types);
        }
      else
        {
          g_assert_null (types);
          g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
          g_assert_nonnull (strstr (error->message, cases[i].message));
        }
      /* the reader sees an envelope only when something follows the header */
      if (strcmp (cases[i].text, "{}\n") != 0)
        assert_reader_agrees (cases[i].text, cases[i].types != NULL);
    }
}

static void
test_header (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *types = frame ("not json\n" TXN "\n{}", &error);

  g_assert_null (types);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
  g_assert_nonnull (strstr (error->message, "the envelope header is not a JSON object"));
}

static gboolean
collect (gpointer       user_data,
         const guint8  *data,
         gsize          len,
         GError       **error)
{
  g_byte_array_append (user_data, data, len);
  return TRUE;
}

/* What the writer frames, the framer reads back item by item, payload for payload. */
static void
test_write_read_back (void)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(JsonObject) existing = json_object_new ();
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) item = json_object_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FcEnvelopeInput) in = NULL;
  g_autoptr(JsonObject) back = NULL;
  g_autoptr(GError) error = NULL;
  static const char payload[] = "line 1\nline 2";
  g_auto(FcEnvelopeItemHeader) first = { 0 };
  g_autoptr(GByteArray) got = g_byte_array_new ();
  gboolean at_end = FALSE;
  const char *text;

  json_object_set_string_member (existing, "dsn", "https://k@example.com/1");
  header = fc_envelope_header_new (existing, "0123456789abcdef0123456789abcdef",
                                   G_GINT64_CONSTANT (1662025500000000000));
  json_object_set_string_member (item, "type", "attachment");
  fc_envelope_append_header (buf, header);
  fc_envelope_append_item (buf, item, (const guint8 *) payload, strlen (payload));
  /* the caller's item header keeps no length */
  g_assert_false (json_object_has_member (item, "length"));

  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&buf));
  text = g_bytes_get_data (bytes, NULL);
  g_assert_true (g_str_has_prefix (text, "{\"dsn\":\"https://k@example.com/1\","
                                         "\"event_id\":\"0123456789abcdef0123456789abcdef\","
                                         "\"sdk\":{\"name\":\"flamecast\",\"version\":\"" FC_VERSION "\"},"
                                         "\"sent_at\":\"2022-09-01T09:45:00.000000Z\"}\n"
                                         "{\"length\":13,\"type\":\"attachment\"}\nline 1\nline 2\n"));

  in = fc_envelope_input_new_for_bytes (bytes);
  back = fc_envelope_input_read_header (in, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (back, "event_id"), ==, "0123456789abcdef0123456789abcdef");
  g_assert_true (fc_envelope_input_next_item (in, &first, &at_end, &error));
  g_assert_false (at_end);
  g_assert_cmpuint (first.length, ==, strlen (payload));
  g_assert_true (fc_envelope_input_read_payload (in, &first, collect, got, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (got->data, got->len, payload, strlen (payload));
  fc_envelope_item_header_clear (&first);
  g_assert_true (fc_envelope_input_next_item (in, &first, &at_end, &error));
  g_assert_true (at_end);
}

/* the header and item rules, on envelopes the reader opened */
static void
test_check (void)
{
  static const char bad[] =
    "{\"event_id\":\"nope\",\"sent_at\":\"2023-01-12T08:24:54\"}\n"
    "{\"type\":\"attachment\"}\nx\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (bad, strlen (bad));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &error);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
  g_autoptr(GString) all = g_string_new (NULL);

  g_assert_no_error (error);
  fc_envelope_check (doc, FALSE, problems);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *text = fc_problem_to_string (g_ptr_array_index (problems, i));

      g_string_append_printf (all, "%s\n", text);
    }
  g_test_message ("%s", all->str);
  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_nonnull (strstr (all->str, "envelope header.sent_at"));
  g_assert_nonnull (strstr (all->str, "envelope header.sdk"));
  g_assert_nonnull (strstr (all->str, "envelope header.event_id"));
  g_assert_cmpuint (fc_problems_count (problems, FC_PROBLEM_ERROR), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/envelope/framing", test_framing);
  g_test_add_func ("/core/envelope/header", test_header);
  g_test_add_func ("/core/envelope/write-read-back", test_write_read_back);
  g_test_add_func ("/core/envelope/check", test_check);

  return g_test_run ();
}
