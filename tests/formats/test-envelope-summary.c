/* test-envelope-summary.c - what an envelope carries, against Relay's limits; the home directory written "~"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-envelope-summary.h"
#include "fc-format-error.h"
#include "fc-strip-home.h"
#include "fc-validate.h"

/* An envelope of ("type", "payload") pairs, ended by NULL. */
static GBytes *
envelope (const char *first_type,
          ...)
{
  GString *text = g_string_new ("{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n");
  const char *type = first_type;
  va_list args;

  va_start (args, first_type);
  while (type != NULL)
    {
      const char *payload = va_arg (args, const char *);

      g_string_append_printf (text, "{\"type\":\"%s\",\"length\":%zu}\n%s\n", type, strlen (payload), payload);
      type = va_arg (args, const char *);
    }
  va_end (args);
  return g_string_free_to_bytes (text);
}

static void
test_summary_items (void)
{
  g_autoptr(GBytes) bytes = envelope ("transaction", "{\"release\":\"a@1\",\"contexts\":{\"trace\":{\"data\":{\"thread.name\":\"main\"}}}}",
                                      "profile", "{\"platform\":\"cocoa\",\"environment\":\"prod\",\"profile\":{\"frames\":"
                                      "[{\"abs_path\":\"/usr/lib/x.so\",\"module\":\"libc.so.6\"}]}}",
                                      "attachment", "not json",
                                      NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcEnvelopeSummary) summary = fc_envelope_summarize (bytes, &error);
  const FcItemSummary *item;

  g_assert_no_error (error);
  g_assert_cmpuint (summary->size, ==, g_bytes_get_size (bytes));
  g_assert_cmpuint (summary->items->len, ==, 3);
  item = g_ptr_array_index (summary->items, 0);
  g_assert_cmpuint (item->limit, ==, FC_VALIDATE_MAX_EVENT_SIZE);
  item = g_ptr_array_index (summary->items, 1);
  g_assert_cmpuint (item->limit, ==, FC_VALIDATE_MAX_PAYLOAD_SIZE);
  item = g_ptr_array_index (summary->items, 2);
  g_assert_cmpstr (item->type, ==, "attachment");
  g_assert_cmpuint (item->limit, ==, 0);
  g_assert_cmpuint (item->size, ==, strlen ("not json"));
  g_assert_cmpstr (summary->release, ==, "a@1");
  g_assert_cmpstr (summary->environment, ==, "prod");
  g_assert_cmpstr (summary->platform, ==, "cocoa");
  g_assert_cmpuint (summary->thread_names->len, ==, 1);
  /* a path, not a module name */
  g_assert_cmpuint (summary->paths->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (summary->paths, 0), ==, "/usr/lib/x.so");
  g_assert_true (fc_envelope_summary_fits (summary));
}

/* One byte above the event limit does not fit; the limit itself does. */
static void
test_summary_limits (void)
{
  for (guint over = 0; over < 2; over++)
    {
      gsize size = FC_VALIDATE_MAX_EVENT_SIZE + over;
      g_autofree char *payload = g_malloc (size + 1);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(FcEnvelopeSummary) summary = NULL;

      /* {"pad":"xxx...x"} of exactly @size bytes */
      memset (payload, 'x', size);
      memcpy (payload, "{\"pad\":\"", 8);
      memcpy (payload + size - 2, "\"}", 2);
      payload[size] = '\0';
      bytes = envelope ("transaction", payload, NULL);
      summary = fc_envelope_summarize (bytes, NULL);
      g_assert_cmpuint (((FcItemSummary *) g_ptr_array_index (summary->items, 0))->size, ==, size);
      g_assert_cmpint (fc_envelope_summary_fits (summary), ==, over == 0);
    }
}

static void
test_summary_broken (void)
{
  static const char text[] = "{}\n{\"type\":\"profile\",\"length\":99}\n{}\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcEnvelopeSummary) summary = fc_envelope_summarize (bytes, &error);

  g_assert_null (summary);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
}

static void
test_strip_home (void)
{
  g_autoptr(GBytes) bytes = envelope ("profile", "{\"profile\":{\"frames\":[{\"abs_path\":\"/home/me/src/a.c\"},"
                                      "{\"abs_path\":\"/home/meg/b.c\"},{\"abs_path\":\"/home/me\"}]}}",
                                      "attachment", "/home/me/kept",
                                      NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) stripped = fc_envelope_strip_home (bytes, "/home/me/", &error);
  g_autoptr(FcEnvelopeSummary) summary = NULL;
  g_autoptr(GBytes) same = NULL;
  gsize len;
  const char *data;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  /* the item lengths were rewritten: it reads back */
  summary = fc_envelope_summarize (stripped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (summary->paths->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (summary->paths, 0), ==, "/home/meg/b.c");
  g_assert_cmpstr (g_ptr_array_index (summary->paths, 1), ==, "~");
  g_assert_cmpstr (g_ptr_array_index (summary->paths, 2), ==, "~/src/a.c");
  /* an item that is not JSON goes as it is */
  data = g_bytes_get_data (stripped, &len);
  text = g_strndup (data, len);
  g_assert_nonnull (strstr (text, "\n/home/me/kept\n"));

  /* "/" as home would make every path "~/...": nothing is changed */
  same = fc_envelope_strip_home (bytes, "/", &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (same, bytes));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/envelope-summary/items", test_summary_items);
  g_test_add_func ("/core/envelope-summary/limits", test_summary_limits);
  g_test_add_func ("/core/envelope-summary/broken", test_summary_broken);
  g_test_add_func ("/core/envelope-summary/strip-home", test_strip_home);

  return g_test_run ();
}
