/* test-time.c - RFC 3339, float seconds and ids: the one rule every layer uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-time.h"

static void
test_seconds (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    gint64 ns;
  } cases[] = {
    { "1724762625.5756555", TRUE, G_GINT64_CONSTANT (1724762625575655500) },
    { "1710805788.51", TRUE, G_GINT64_CONSTANT (1710805788510000000) },
    { "1710805788", TRUE, G_GINT64_CONSTANT (1710805788000000000) },
    { "1.7108057885e9", TRUE, G_GINT64_CONSTANT (1710805788500000000) },
    { "17108057885E-1", TRUE, G_GINT64_CONSTANT (1710805788500000000) },
    { "171080578851e-2", TRUE, G_GINT64_CONSTANT (1710805788510000000) },
    { "0.0000000005", TRUE, 1 },
    { "0.0000000004", TRUE, 0 },
    { "0", TRUE, 0 },
    { "1.123456789123", TRUE, G_GINT64_CONSTANT (1123456789) },
    { "-1", FALSE, 0 },
    { "1e300", FALSE, 0 },
    { "7258118401", FALSE, 0 },
    { "1e", FALSE, 0 },
    { "abc", FALSE, 0 },
    { "", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 ns = -1;
      gboolean ok = fc_time_parse_seconds (cases[i].text, strlen (cases[i].text), &ns);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (ok)
        g_assert_cmpint (ns, ==, cases[i].ns);
    }
}

static void
test_format_seconds (void)
{
  char buf[64];

  fc_time_format_seconds (G_GINT64_CONSTANT (1710805788500000000), buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "1710805788.500000");
  /* truncated to the µs, never rounded up into the next one */
  fc_time_format_seconds (G_GINT64_CONSTANT (1710805688117936800), buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "1710805688.117936");
  fc_time_format_seconds (G_GINT64_CONSTANT (1999999999999), buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "1999.999999");
  fc_time_format_seconds (0, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "0.000000");
  fc_time_format_seconds (-G_GINT64_CONSTANT (250000000), buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "-0.250000");
  fc_time_format_seconds (-G_GINT64_CONSTANT (1000000000), buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "-1.000000");
}

/* ns -> s and the text writer drop the same sub-microsecond part, and the
 * way back is exact: one rule, whichever path a timestamp takes. */
static void
test_ns_s_rule (void)
{
  static const gint64 cases[] = {
    G_GINT64_CONSTANT (1710805688117936800),
    G_GINT64_CONSTANT (1710805788500000000),
    G_GINT64_CONSTANT (1710805788499999999),
    G_GINT64_CONSTANT (1747662420000000999),
    1, 0, 999, 1000,
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 floor_us = cases[i] / 1000;
      double s = fc_time_ns_to_s (cases[i]);
      char buf[64];
      gint64 from_text = -1;

      fc_time_format_seconds (cases[i], buf, sizeof buf);
      g_assert_true (fc_time_parse_seconds (buf, strlen (buf), &from_text));
      g_assert_cmpint (from_text, ==, floor_us * 1000);
      /* a double holds 1.7e9 s to ~0.2 µs: back to the microsecond */
      g_assert_cmpint ((fc_time_s_to_ns (s) + 500) / 1000, ==, floor_us);
    }

  g_assert_cmpfloat (fc_time_ns_to_s (G_GINT64_CONSTANT (1500000000)), ==, 1.5);
  g_assert_cmpfloat (fc_time_ns_to_s (G_GINT64_CONSTANT (1999999)), ==, 0.001999);
  g_assert_cmpint (fc_time_s_to_ns (0.5), ==, G_GINT64_CONSTANT (500000000));
  g_assert_cmpint (fc_time_s_to_ns (1710805788.0), ==, G_GINT64_CONSTANT (1710805788000000000));
}

static void
test_rfc3339_parse (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    gint64 ns;
  } cases[] = {
    { "2022-09-01T09:45:00.000Z", TRUE, G_GINT64_CONSTANT (1662025500000000000) },
    { "2025-05-19T13:47:00.482107Z", TRUE, G_GINT64_CONSTANT (1747662420482107000) },
    { "2025-05-19T13:47:00.123456789Z", TRUE, G_GINT64_CONSTANT (1747662420123456789) },
    { "2025-05-19T13:47:00.1234567891Z", TRUE, G_GINT64_CONSTANT (1747662420123456789) },
    { "2025-05-19T15:47:00.5+02:00", TRUE, G_GINT64_CONSTANT (1747662420500000000) },
    { "2022-09-01T11:45:00.5+02:00", TRUE, G_GINT64_CONSTANT (1662025500500000000) },
    { "2025-05-19T12:17:00-01:30", TRUE, G_GINT64_CONSTANT (1747662420000000000) },
    { "2025-05-19T15:47:00+0200", TRUE, G_GINT64_CONSTANT (1747662420000000000) },
    { "2023-01-12T08:24:54Z", TRUE, G_GINT64_CONSTANT (1673511894000000000) },
    { "2023-01-12t08:24:54z", TRUE, G_GINT64_CONSTANT (1673511894000000000) },
    { "2023-01-12 08:24:54Z", TRUE, G_GINT64_CONSTANT (1673511894000000000) },
    { "2024-02-29T00:00:00Z", TRUE, G_GINT64_CONSTANT (1709164800000000000) },
    { "1970-01-01T00:00:00Z", TRUE, 0 },
    { "2200-01-01T00:00:00Z", TRUE, G_GINT64_CONSTANT (7258118400) * 1000000000 },
    /* no offset: Relay (chrono) rejects it, so reader and validator do */
    { "2023-01-12T08:24:54", FALSE, 0 },
    { "2023-01-12T08:24:54.5", FALSE, 0 },
    { "2022-09-01 11:45", FALSE, 0 },
    { "yesterday", FALSE, 0 },
    { "", FALSE, 0 },
    { "2025-05-19T13:47:00.Z", FALSE, 0 },
    { "2025-13-19T13:47:00Z", FALSE, 0 },
    { "2023-02-29T00:00:00Z", FALSE, 0 },
    { "2023-01-12T24:00:00Z", FALSE, 0 },
    { "2023-01-12T08:60:00Z", FALSE, 0 },
    { "2023-01-12T08:24:54+24:00", FALSE, 0 },
    { "2023-01-12T08:24:54Z trailing", FALSE, 0 },
    /* ISO 8601 forms that are not RFC 3339 (GLib takes them) */
    { "20230112T082454Z", FALSE, 0 },
    { "2023-012T08:24:54Z", FALSE, 0 },
    { "2023-W02-4T08:24:54Z", FALSE, 0 },
    /* outside the instants a profile can hold */
    { "1969-12-31T23:59:59Z", FALSE, 0 },
    { "2200-01-01T00:00:01Z", FALSE, 0 },
    { "0000-01-01T00:00:00Z", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 ns = -1;
      gboolean ok = fc_time_parse_rfc3339 (cases[i].text, &ns);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (ok)
        g_assert_cmpint (ns, ==, cases[i].ns);
    }
}

static void
test_rfc3339_format (void)
{
  g_autofree char *a = fc_time_format_rfc3339 (G_GINT64_CONSTANT (1662025500000000000));
  g_autofree char *b = fc_time_format_rfc3339 (G_GINT64_CONSTANT (1662025500000000007));
  gint64 ns = 0;

  g_assert_cmpstr (a, ==, "2022-09-01T09:45:00.000000Z");
  g_assert_cmpstr (b, ==, "2022-09-01T09:45:00.000000007Z");
  g_assert_true (fc_time_parse_rfc3339 (b, &ns));
  g_assert_cmpint (ns, ==, G_GINT64_CONSTANT (1662025500000000007));
}

static void
test_ids (void)
{
  g_autofree char *a = fc_uuid_hex_new ();
  g_autofree char *b = fc_uuid_hex_new ();
  g_autofree char *span = fc_span_id_hex_new ();
  gboolean canonical = FALSE;

  g_assert_cmpuint (strlen (a), ==, 32);
  g_assert_cmpstr (a, !=, b);
  g_assert_true (fc_uuid_is_valid (a, &canonical));
  g_assert_true (canonical);
  /* version 4, RFC 4122 variant */
  g_assert_cmpint (a[12], ==, '4');
  g_assert_nonnull (strchr ("89ab", a[16]));
  g_assert_true (fc_hex_is_valid (span, 16));

  g_assert_true (fc_uuid_is_valid ("C0BCC3F1-9827-FE65-3058-404B2831D9E6", &canonical));
  g_assert_false (canonical);
  g_assert_false (fc_uuid_is_valid ("not-a-uuid", NULL));
  g_assert_false (fc_hex_is_valid ("0123456789abcdeg", 16));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/time/seconds", test_seconds);
  g_test_add_func ("/core/time/format-seconds", test_format_seconds);
  g_test_add_func ("/core/time/ns-s-rule", test_ns_s_rule);
  g_test_add_func ("/core/time/rfc3339-parse", test_rfc3339_parse);
  g_test_add_func ("/core/time/rfc3339-format", test_rfc3339_format);
  g_test_add_func ("/core/time/ids", test_ids);

  return g_test_run ();
}
