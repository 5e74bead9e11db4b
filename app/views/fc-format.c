/* fc-format.c - durations, counts and shares as the views print them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <glib/gi18n.h>

#include "fc-format.h"

/**
 * fc_format_duration:
 * @ns: a duration in nanoseconds
 *
 * Three significant digits in the largest unit that keeps the number at
 * least 1: "1.23 s", "45.6 ms", "789 µs", "12 ns"; from a minute up, as a
 * clock reads: "16 min 40 s", "1 h 02 min". The one duration format of the
 * app: tooltips, the details panel, the call tree and the ruler's
 * selection all print through it.
 *
 * Returns: (transfer full): the text
 */
char *
fc_format_duration (gint64 ns)
{
  double value = ABS ((double) ns);
  const char *sign = ns < 0 ? "-" : "";

  if (value >= 3600e9)
    {
      gint64 minutes = (gint64) (value / 60e9);
      /* TRANSLATORS: hours and minutes, as in "1 h 02 min" */
      return g_strdup_printf (_("%s%" PRId64 " h %02" PRId64 " min"), sign, minutes / 60, minutes % 60);
    }
  if (value >= 60e9)
    {
      gint64 seconds = (gint64) (value / 1e9);
      /* TRANSLATORS: minutes and seconds, as in "2 min 05 s" */
      return g_strdup_printf (_("%s%" PRId64 " min %02" PRId64 " s"), sign, seconds / 60, seconds % 60);
    }
  if (value >= 1e9)
    return g_strdup_printf ("%s%.*f s", sign, value >= 10e9 ? 1 : 2, value / 1e9);
  if (value >= 1e6)
    return g_strdup_printf ("%s%.*f ms", sign, value >= 100e6 ? 0 : value >= 10e6 ? 1 : 2, value / 1e6);
  if (value >= 1e3)
    return g_strdup_printf ("%s%.*f µs", sign, value >= 100e3 ? 0 : value >= 10e3 ? 1 : 2, value / 1e3);
  return g_strdup_printf ("%s%.0f ns", sign, value);
}

/**
 * fc_format_percent:
 * @part: a part
 * @whole: the whole
 *
 * Returns: (transfer full): "12.3%"; a share too small for one decimal
 *   keeps two significant digits ("0.029%": 17 ms of 59 s is not 0.0%);
 *   "–" when @whole is 0
 */
char *
fc_format_percent (gint64 part,
                   gint64 whole)
{
  double share;

  if (whole == 0)
    return g_strdup ("–");

  share = 100.0 * (double) part / (double) whole;
  if (part != 0 && ABS (share) < 0.05)
    return g_strdup_printf ("%.2g%%", share);
  return g_strdup_printf ("%.1f%%", share);
}
