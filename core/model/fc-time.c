/* fc-time.c - instants and ids as Sentry writes them: RFC 3339, float seconds, UUID v4 hex
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "fc-time.h"

/* ---- RFC 3339 ---- */

/* Reads exactly @n digits at *p. */
static gboolean
read_digits (const char **p,
             guint        n,
             int         *out)
{
  int v = 0;

  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit ((*p)[i]))
        return FALSE;
      v = v * 10 + ((*p)[i] - '0');
    }
  *p += n;
  *out = v;
  return TRUE;
}

static gboolean
expect (const char **p,
        char         c)
{
  if (**p != c)
    return FALSE;
  (*p)++;
  return TRUE;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's algorithm). */
static gint64
days_from_civil (int year,
                 int month,
                 int day)
{
  gint64 y = month <= 2 ? year - 1 : year;
  gint64 era = (y >= 0 ? y : y - 399) / 400;
  gint64 yoe = y - era * 400;
  gint64 doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  gint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

  return era * 146097 + doe - 719468;
}

/**
 * fc_time_parse_rfc3339:
 * @text: "2025-05-19T13:47:00.482107Z", "2022-09-01T09:45:00+02:00"...
 * @out_ns: (out): ns since the epoch
 *
 * Unlike GDateTime, keeps up to nine fractional digits; unlike GLib's ISO
 * 8601 parser, takes only RFC 3339 (no week or ordinal dates, no missing
 * offset), as Relay does.
 *
 * Returns: %TRUE when @text is such a timestamp within 1970..2200
 */
gboolean
fc_time_parse_rfc3339 (const char *text,
                       gint64     *out_ns)
{
  const char *p = text;
  int year, month, day, hour, minute, second;
  int off_h = 0, off_m = 0, off_sign = 0;
  gint64 frac = 0;
  int n_frac = 0;
  gint64 unix_s;

  g_return_val_if_fail (out_ns != NULL, FALSE);

  if (text == NULL)
    return FALSE;

  if (!read_digits (&p, 4, &year) || !expect (&p, '-') ||
      !read_digits (&p, 2, &month) || !expect (&p, '-') ||
      !read_digits (&p, 2, &day))
    return FALSE;
  if (*p != 'T' && *p != 't' && *p != ' ')
    return FALSE;
  p++;
  if (!read_digits (&p, 2, &hour) || !expect (&p, ':') ||
      !read_digits (&p, 2, &minute) || !expect (&p, ':') ||
      !read_digits (&p, 2, &second))
    return FALSE;

  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      for (; g_ascii_isdigit (*p); p++)
        {
          if (n_frac < 9)
            {
              frac = frac * 10 + (*p - '0');
              n_frac++;
            }
        }
      for (; n_frac < 9; n_frac++)
        frac *= 10;
    }

  if (*p == 'Z' || *p == 'z')
    p++;
  else if (*p == '+' || *p == '-')
    {
      off_sign = *p == '-' ? -1 : 1;
      p++;
      if (!read_digits (&p, 2, &off_h))
        return FALSE;
      if (*p == ':')
        p++;
      if (!read_digits (&p, 2, &off_m))
        return FALSE;
    }
  else
    return FALSE;   /* no offset: the instant is unknown */

  if (*p != '\0')
    return FALSE;

  /* Year 0 fails g_date_get_days_in_month()'s precondition (found by fuzz/fuzz-payload). */
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > (int) g_date_get_days_in_month (month, year) ||
      hour > 23 || minute > 59 || second > 59 || off_h > 23 || off_m > 59)
    return FALSE;

  unix_s = days_from_civil (year, month, day) * 86400 + hour * 3600 + minute * 60 + second
           - off_sign * (off_h * 3600 + off_m * 60);
  if (unix_s < 0 || unix_s > FC_TIME_MAX_S)
    return FALSE;

  *out_ns = unix_s * FC_TIME_NS_PER_S + frac;
  return TRUE;
}

char *
fc_time_format_rfc3339 (gint64 unix_ns)
{
  gint64 secs = unix_ns / FC_TIME_NS_PER_S;
  gint64 frac = unix_ns % FC_TIME_NS_PER_S;
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *base = NULL;

  if (frac < 0)
    {
      frac += FC_TIME_NS_PER_S;
      secs -= 1;
    }

  dt = g_date_time_new_from_unix_utc (secs);
  if (dt == NULL)
    return g_strdup ("1970-01-01T00:00:00.000000Z");
  base = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");

  if (frac % 1000 == 0)
    return g_strdup_printf ("%s.%06dZ", base, (int) (frac / 1000));
  return g_strdup_printf ("%s.%09dZ", base, (int) frac);
}

/* ---- seconds ---- */

static gint64
floor_div (gint64 a,
           gint64 b)
{
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

double
fc_time_ns_to_s (gint64 ns)
{
  gint64 us = floor_div (ns, 1000);
  gint64 s = floor_div (us, 1000000);

  /* whole seconds and microseconds apart, so .5 prints as .5, not .499999999 */
  return (double) s + (double) (us - s * 1000000) / 1e6;
}

gint64
fc_time_s_to_ns (double s)
{
  double whole = floor (s);

  if (!isfinite (s))
    return 0;
  return (gint64) whole * FC_TIME_NS_PER_S + (gint64) llround ((s - whole) * 1e9);
}

void
fc_time_format_seconds (gint64  unix_ns,
                        char   *buf,
                        gsize   buf_len)
{
  gint64 us = floor_div (unix_ns, 1000);
  gint64 secs = floor_div (us, 1000000);
  gint64 rem_us = us - secs * 1000000;

  if (secs < 0 && rem_us != 0)
    {
      /* -0.25 s is secs = -1, rem = 0.75 s: print the exact negative value */
      g_snprintf (buf, buf_len, "-%" G_GINT64_FORMAT ".%06d", -(secs + 1), (int) (1000000 - rem_us));
      return;
    }
  g_snprintf (buf, buf_len, "%" G_GINT64_FORMAT ".%06d", secs, (int) rem_us);
}

gboolean
fc_time_parse_seconds (const char *s,
                       gsize       len,
                       gint64     *out_ns)
{
  char digits[64];
  gsize n_digits = 0;
  gsize n_int = 0;
  gint64 exp = 0;
  gint64 point;
  gsize i = 0;
  gsize first = 0;
  guint64 ns = 0;

  /* -0 (and -0.0, -0e3) is zero, as for Relay; any other negative time is
   * before 1970 */
  if (len > 1 && s[0] == '-')
    {
      for (i = 1; i < len && s[i] != 'e' && s[i] != 'E'; i++)
        if (s[i] != '0' && s[i] != '.')
          return FALSE;
      return fc_time_parse_seconds (s + 1, len - 1, out_ns);
    }
  if (len == 0 || s[0] == '-')
    return FALSE;

  /* Digits of the mantissa; only the first few dozen can matter. */
  for (; i < len && g_ascii_isdigit (s[i]); i++, n_int++)
    if (n_digits < sizeof digits)
      digits[n_digits++] = s[i];
  if (n_int == 0)
    return FALSE;
  if (n_int > sizeof digits)
    return FALSE;

  if (i < len && s[i] == '.')
    {
      for (i++; i < len && g_ascii_isdigit (s[i]); i++)
        if (n_digits < sizeof digits)
          digits[n_digits++] = s[i];
    }

  if (i < len && (s[i] == 'e' || s[i] == 'E'))
    {
      gboolean neg = FALSE;

      i++;
      if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
      if (i == len)
        return FALSE;
      for (; i < len && g_ascii_isdigit (s[i]); i++)
        {
          if (exp < 100000)
            exp = exp * 10 + (s[i] - '0');
        }
      if (neg)
        exp = -exp;
    }

  if (i != len)
    return FALSE;

  /* Position of the decimal point in digits[] once scaled to nanoseconds. */
  point = (gint64)n_int + exp + 9;

  while (first < n_digits && digits[first] == '0')
    {
      first++;
      point--;
    }

  if (first == n_digits || point < 0)
    {
      *out_ns = 0;
      return TRUE;
    }

  if (point > 19)
    return FALSE;

  for (gint64 k = 0; k < point; k++)
    {
      gsize pos = first + k;
      guint d = pos < n_digits ? digits[pos] - '0' : 0;

      ns = ns * 10 + d;
    }

  if (first + point < n_digits && digits[first + point] >= '5')
    ns++;

  if (ns > (guint64)FC_TIME_MAX_S * FC_TIME_NS_PER_S)
    return FALSE;

  *out_ns = (gint64)ns;
  return TRUE;
}

/* ---- ids ---- */

char *
fc_uuid_hex_new (void)
{
  g_autofree char *uuid = g_uuid_string_random ();
  GString *out = g_string_sized_new (32);

  for (const char *p = uuid; *p != '\0'; p++)
    {
      if (*p != '-')
        g_string_append_c (out, g_ascii_tolower (*p));
    }

  return g_string_free (out, FALSE);
}

char *
fc_span_id_hex_new (void)
{
  g_autofree char *uuid = fc_uuid_hex_new ();

  /* the second half of a v4 UUID is random apart from the variant nibble */
  return g_strndup (uuid + 16, 16);
}

gboolean
fc_hex_is_valid (const char *str,
                 gsize       len)
{
  if (str == NULL || strlen (str) != len)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isxdigit (str[i]))
        return FALSE;
    }
  return TRUE;
}

gboolean
fc_uuid_is_valid (const char *str,
                  gboolean   *canonical)
{
  gboolean ok = FALSE;
  gboolean canon = FALSE;

  if (str == NULL)
    goto out;

  if (fc_hex_is_valid (str, 32))
    {
      ok = TRUE;
      canon = TRUE;
      for (const char *p = str; *p != '\0'; p++)
        {
          if (g_ascii_isupper (*p))
            canon = FALSE;
        }
    }
  else if (g_uuid_string_is_valid (str))
    {
      ok = TRUE;
    }

out:
  if (canonical != NULL)
    *canonical = canon;
  return ok;
}
