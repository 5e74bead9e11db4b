/* test-rate-limits.c - X-Sentry-Rate-Limits, Retry-After, categories, persistence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <libsoup/soup.h>

#include "fc-rate-limits.h"

#define NOW ((gint64) 1700000000 * G_USEC_PER_SEC)
#define S(x) ((gint64) ((x) * G_USEC_PER_SEC))

static void
test_rate_limits_header (void)
{
  g_autoptr(FcRateLimits) limits = fc_rate_limits_new (NULL);

  /* Read on a 200 as well. */
  g_assert_true (fc_rate_limits_update (limits, 200,
                                        "60:profile_chunk;profile:organization:usage_exceeded, 2.5:transaction:key",
                                        NULL, NOW));

  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "profile_chunk", NOW), ==, NOW + S (60));
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "profile", NOW), ==, NOW + S (60));
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "transaction", NOW), ==, NOW + S (2.5));
  g_assert_false (fc_rate_limits_is_limited (limits, "error", NOW));
  g_assert_false (fc_rate_limits_is_limited (limits, "transaction", NOW + S (2.5)));
  g_assert_true (fc_rate_limits_is_limited (limits, "profile_chunk", NOW + S (59.9)));
  g_assert_false (fc_rate_limits_is_limited (limits, "profile_chunk", NOW + S (60)));

  /* A shorter limit never shortens a longer one. */
  g_assert_false (fc_rate_limits_update (limits, 200, "10:profile_chunk:key", NULL, NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "profile_chunk", NOW), ==, NOW + S (60));
}

static void
test_rate_limits_catch_all (void)
{
  g_autoptr(FcRateLimits) limits = fc_rate_limits_new (NULL);

  /* Empty categories: everything. Fractions round up to the microsecond. */
  g_assert_true (fc_rate_limits_update (limits, 429, "0.0000015::organization", "999", NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "profile_chunk", NOW), ==, NOW + 2);
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "transaction", NOW), ==, NOW + 2);
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, NULL, NOW), ==, NOW + 2);
}

static FcRateLimits *
limits_at (const char *name)
{
  g_autofree char *path = g_build_filename (g_get_user_state_dir (), name, NULL);
  return fc_rate_limits_new (path);
}

static void
test_rate_limits_retry_after (void)
{
  g_autoptr(FcRateLimits) a = limits_at ("a.ini");
  g_autoptr(FcRateLimits) b = limits_at ("b.ini");
  g_autoptr(FcRateLimits) c = limits_at ("c.ini");
  g_autoptr(FcRateLimits) d = limits_at ("d.ini");

  /* 429 with Retry-After only: all categories. */
  g_assert_true (fc_rate_limits_update (a, 429, NULL, "30", NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (a, "profile", NOW), ==, NOW + S (30));

  /* 429 with neither: 60 s. Garbage counts as neither. */
  g_assert_true (fc_rate_limits_update (b, 429, NULL, NULL, NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (b, "transaction", NOW), ==, NOW + S (60));
  g_assert_true (fc_rate_limits_update (c, 429, "", "Wed, 21 Oct 2015 07:28:00 GMT", NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (c, "profile_chunk", NOW), ==, NOW + S (60));

  /* 429 with the header: the header wins, other categories stay free. */
  g_assert_true (fc_rate_limits_update (d, 429, "120:profile_chunk:project", "5", NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (d, "profile_chunk", NOW), ==, NOW + S (120));
  g_assert_false (fc_rate_limits_is_limited (d, "transaction", NOW));

  /* Retry-After means nothing outside a 429. */
  g_assert_false (fc_rate_limits_update (a, 503, NULL, "3000", NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (a, "profile", NOW), ==, NOW + S (30));
}

static void
test_rate_limits_retry_after_date (void)
{
  g_autoptr(FcRateLimits) limits = limits_at ("date.ini");
  g_autoptr(GDateTime) at = g_date_time_new_from_unix_utc (NOW / G_USEC_PER_SEC + 90);
  g_autofree char *date = soup_date_time_to_string (at, SOUP_DATE_HTTP);
  gint64 delay = -1;

  /* Delta-seconds (rounded up to whole microseconds) and HTTP dates. */
  g_assert_true (fc_retry_after_parse ("7", NOW, &delay));
  g_assert_cmpint (delay, ==, S (7));
  g_assert_true (fc_retry_after_parse (" 1.5 ", NOW, &delay));
  g_assert_cmpint (delay, ==, S (1) + S (1) / 2);
  g_assert_true (fc_retry_after_parse (date, NOW, &delay));
  g_assert_cmpint (delay, ==, S (90));
  /* Garbage, negative and past dates are no Retry-After. */
  g_assert_false (fc_retry_after_parse ("soon", NOW, &delay));
  g_assert_false (fc_retry_after_parse ("-5", NOW, &delay));
  g_assert_false (fc_retry_after_parse ("Wed, 21 Oct 2015 07:28:00 GMT", NOW, &delay));

  /* A 429 with a date in the future silences everything until then. */
  g_assert_true (fc_rate_limits_update (limits, 429, NULL, date, NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "profile_chunk", NOW), ==, NOW + S (90));
}

static void
test_rate_limits_malformed (void)
{
  g_autoptr(FcRateLimits) limits = fc_rate_limits_new (NULL);

  g_assert_false (fc_rate_limits_update (limits, 200, "soon:profile_chunk:key,, -5:profile:key,:", NULL, NOW));
  g_assert_false (fc_rate_limits_is_limited (limits, "profile_chunk", NOW));
  g_assert_false (fc_rate_limits_is_limited (limits, "profile", NOW));

  /* One bad entry does not spoil the good ones. */
  g_assert_true (fc_rate_limits_update (limits, 200, "x:y:z, 7:profile:key", NULL, NOW));
  g_assert_cmpint (fc_rate_limits_get_limited_until (limits, "profile", NOW), ==, NOW + S (7));

  /* Found by fuzz/fuzz-rate-limits: a category that is no key name ("a=b")
   * is no category we send: ignored (it was a GKeyFile critical), and it does
   * not turn into a limit on everything either. */
  g_assert_false (fc_rate_limits_update (limits, 429, "60:a=b;[x];Encoding", NULL, NOW));
  g_assert_false (fc_rate_limits_is_limited (limits, "transaction", NOW));
}

static void
test_rate_limits_persisted (void)
{
  g_autoptr(FcRateLimits) first = fc_rate_limits_new (NULL);
  g_autoptr(FcRateLimits) second = NULL;
  g_autoptr(FcRateLimits) third = NULL;
  g_autofree char *expected = g_build_filename (g_get_user_state_dir (), "flamecast", "rate-limits.ini", NULL);

  g_assert_cmpstr (fc_rate_limits_get_path (first), ==, expected);
  g_assert_false (g_file_test (expected, G_FILE_TEST_EXISTS));

  fc_rate_limits_update (first, 429, "90:profile_chunk:key, 5::org", NULL, NOW);
  g_assert_true (g_file_test (expected, G_FILE_TEST_EXISTS));

  /* The next run (app or CLI) knows. */
  second = fc_rate_limits_new (NULL);
  g_assert_cmpint (fc_rate_limits_get_limited_until (second, "profile_chunk", NOW), ==, NOW + S (90));
  g_assert_cmpint (fc_rate_limits_get_limited_until (second, "transaction", NOW), ==, NOW + S (5));
  g_assert_false (fc_rate_limits_is_limited (second, "transaction", NOW + S (6)));

  fc_rate_limits_clear (second);
  g_assert_false (fc_rate_limits_is_limited (second, "profile_chunk", NOW));
  third = fc_rate_limits_new (NULL);
  g_assert_false (fc_rate_limits_is_limited (third, "profile_chunk", NOW));
}

static void
test_rate_limits_broken_file (void)
{
  g_autofree char *path = g_build_filename (g_get_user_state_dir (), "broken.ini", NULL);
  g_autoptr(FcRateLimits) limits = NULL;

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_state_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "[rate-limits]\nprofile=tomorrow\n\x01garbage", -1, NULL));
  limits = fc_rate_limits_new (path);
  g_assert_false (fc_rate_limits_is_limited (limits, "profile", NOW));
}

static void
test_rate_limits_categories (void)
{
  g_assert_cmpstr (fc_rate_limits_category_for_item ("profile_chunk", "native"), ==, "profile_chunk");
  g_assert_cmpstr (fc_rate_limits_category_for_item ("profile_chunk", NULL), ==, "profile_chunk");
  g_assert_cmpstr (fc_rate_limits_category_for_item ("profile_chunk", "cocoa"), ==, "profile_chunk_ui");
  g_assert_cmpstr (fc_rate_limits_category_for_item ("profile", "native"), ==, "profile");
  g_assert_cmpstr (fc_rate_limits_category_for_item ("transaction", NULL), ==, "transaction");
  g_assert_cmpstr (fc_rate_limits_category_for_item ("event", NULL), ==, "error");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/rate-limits/header", test_rate_limits_header);
  g_test_add_func ("/core/rate-limits/catch-all", test_rate_limits_catch_all);
  g_test_add_func ("/core/rate-limits/retry-after", test_rate_limits_retry_after);
  g_test_add_func ("/core/rate-limits/retry-after-date", test_rate_limits_retry_after_date);
  g_test_add_func ("/core/rate-limits/malformed", test_rate_limits_malformed);
  g_test_add_func ("/core/rate-limits/persisted", test_rate_limits_persisted);
  g_test_add_func ("/core/rate-limits/broken-file", test_rate_limits_broken_file);
  g_test_add_func ("/core/rate-limits/categories", test_rate_limits_categories);

  return g_test_run ();
}
