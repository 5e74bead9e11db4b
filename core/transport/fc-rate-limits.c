/* fc-rate-limits.c - Relay's rate limits per data category, remembered across runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "fc-atomic-file.h"
#include "fc-rate-limits.h"

#define GROUP "rate-limits"
/* The catch-all ("empty categories" in the header) is stored under this key. */
#define ALL_CATEGORIES "*"
#define DEFAULT_RETRY_AFTER_S 60.0

struct _FcRateLimits
{
  GObject     parent_instance;

  char       *path;
  GHashTable *until;      /* category -> gint64* wall-clock µs */
};

G_DEFINE_FINAL_TYPE (FcRateLimits, fc_rate_limits, G_TYPE_OBJECT)

static void
fc_rate_limits_finalize (GObject *object)
{
  FcRateLimits *self = (FcRateLimits *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->until, g_hash_table_unref);

  G_OBJECT_CLASS (fc_rate_limits_parent_class)->finalize (object);
}

static void
fc_rate_limits_class_init (FcRateLimitsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_rate_limits_finalize;
}

static void
fc_rate_limits_init (FcRateLimits *self)
{
  self->until = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
set_until (FcRateLimits *self,
           const char   *category,
           gint64        until)
{
  g_hash_table_insert (self->until, g_strdup (category), g_memdup2 (&until, sizeof until));
}

static gint64
get_until (FcRateLimits *self,
           const char   *category)
{
  const gint64 *until = g_hash_table_lookup (self->until, category);
  return until ? *until : 0;
}

static void
fc_rate_limits_load (FcRateLimits *self)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) keys = NULL;

  if (!g_key_file_load_from_file (keyfile, self->path, G_KEY_FILE_NONE, &error))
    {
      /* A missing or broken file means no known limits: sending is how we learn them again. */
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_debug ("Ignoring Sentry rate limits in %s: %s", self->path, error->message);
      return;
    }

  keys = g_key_file_get_keys (keyfile, GROUP, NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = g_key_file_get_value (keyfile, GROUP, keys[i], NULL);
      gint64 until;

      if (value == NULL || !g_ascii_string_to_signed (value, 10, 0, G_MAXINT64, &until, NULL))
        continue;
      set_until (self, keys[i], until);
    }
}

static void
fc_rate_limits_save (FcRateLimits *self,
                     gint64        now_us)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  GHashTableIter iter;
  gpointer key, value;
  gsize len;

  g_key_file_set_comment (keyfile, NULL, NULL,
                          " Sentry rate limits: category = wall-clock microseconds until which nothing is sent",
                          NULL);

  g_hash_table_iter_init (&iter, self->until);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 until = *(gint64 *)value;
      char buf[32];

      if (until <= now_us)
        continue;
      g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, until);
      g_key_file_set_value (keyfile, GROUP, key, buf);
    }

  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_warning ("Cannot remember Sentry rate limits: cannot create %s: %s", dir, g_strerror (errno));
      return;
    }

  data = g_key_file_to_data (keyfile, &len, NULL);
  /* Atomic and synced: a half-written file would forget every limit. */
  if (!fc_atomic_file_write (self->path, data, len, &error))
    g_warning ("Cannot remember Sentry rate limits: %s", error->message);
}

FcRateLimits *
fc_rate_limits_new (const char *path)
{
  FcRateLimits *self = g_object_new (FC_TYPE_RATE_LIMITS, NULL);

  if (path != NULL)
    self->path = g_strdup (path);
  else
    self->path = g_build_filename (g_get_user_state_dir (), "flamecast", "rate-limits.ini", NULL);

  fc_rate_limits_load (self);

  return self;
}

const char *
fc_rate_limits_get_path (FcRateLimits *self)
{
  g_return_val_if_fail (FC_IS_RATE_LIMITS (self), NULL);
  return self->path;
}

static gboolean
parse_seconds (const char *text,
               double     *seconds)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;
  double value;

  if (copy[0] == '\0')
    return FALSE;
  value = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (value) || value < 0)
    return FALSE;
  *seconds = value;
  return TRUE;
}

/* Relay's data categories are lowercase snake_case words; anything else in the
 * header is no category we send, and would not survive as a key of the state
 * file: g_key_file_set_value() refuses "a=b" with a critical, and a key named
 * "Encoding" makes the whole file unloadable, forgetting every limit (both
 * found by fuzz/fuzz-rate-limits). */
static gboolean
is_category (const char *text)
{
  if (*text == '\0')
    return FALSE;
  for (; *text; text++)
    if (!g_ascii_islower (*text) && !g_ascii_isdigit (*text) && *text != '_')
      return FALSE;
  return TRUE;
}

static gboolean
extend (FcRateLimits *self,
        const char   *category,
        gint64        until)
{
  if (get_until (self, category) >= until)
    return FALSE;
  set_until (self, category, until);
  return TRUE;
}

static gint64
deadline (gint64 now_us,
          double seconds)
{
  /* Round up: sending a fraction of a second early gets another 429. */
  return now_us + (gint64) ceil (MIN (seconds, 366.0 * 24 * 3600) * G_USEC_PER_SEC);
}

gboolean
fc_retry_after_parse (const char *value,
                      gint64      now_us,
                      gint64     *delay_us)
{
  g_autoptr(GDateTime) date = NULL;
  double seconds;

  g_return_val_if_fail (delay_us != NULL, FALSE);

  if (value == NULL)
    return FALSE;

  if (parse_seconds (value, &seconds))
    {
      *delay_us = deadline (0, seconds);
      return TRUE;
    }

  if ((date = soup_date_time_new_from_http_string (value)) != NULL)
    {
      gint64 at = g_date_time_to_unix (date) * G_USEC_PER_SEC;

      /* A date already past says more about a wrong clock than about when
       * to come back: as good as no header. */
      if (at <= now_us)
        return FALSE;
      *delay_us = at - now_us;
      return TRUE;
    }

  return FALSE;
}

gboolean
fc_rate_limits_update (FcRateLimits *self,
                       guint         status,
                       const char   *x_sentry_rate_limits,
                       const char   *retry_after,
                       gint64        now_us)
{
  gboolean changed = FALSE;
  gboolean had_header = FALSE;

  g_return_val_if_fail (FC_IS_RATE_LIMITS (self), FALSE);

  if (x_sentry_rate_limits != NULL && *x_sentry_rate_limits != '\0')
    {
      g_auto(GStrv) entries = g_strsplit (x_sentry_rate_limits, ",", -1);

      for (guint i = 0; entries[i] != NULL; i++)
        {
          g_auto(GStrv) fields = g_strsplit (entries[i], ":", -1);
          g_auto(GStrv) categories = NULL;
          double seconds;
          gint64 until;
          gboolean any = FALSE;

          if (fields[0] == NULL || !parse_seconds (fields[0], &seconds))
            continue;

          had_header = TRUE;
          until = deadline (now_us, seconds);

          categories = g_strsplit (fields[1] ? fields[1] : "", ";", -1);
          for (guint j = 0; categories[j] != NULL; j++)
            {
              g_strstrip (categories[j]);
              if (categories[j][0] == '\0')
                continue;
              any = TRUE;
              if (!is_category (categories[j]))
                continue;
              changed |= extend (self, categories[j], until);
            }

          if (!any)
            changed |= extend (self, ALL_CATEGORIES, until);
        }
    }

  if (status == 429 && !had_header)
    {
      gint64 delay_us;
      double seconds = DEFAULT_RETRY_AFTER_S;

      if (retry_after != NULL && fc_retry_after_parse (retry_after, now_us, &delay_us))
        seconds = (double) delay_us / G_USEC_PER_SEC;
      changed |= extend (self, ALL_CATEGORIES, deadline (now_us, seconds));
    }

  if (changed)
    fc_rate_limits_save (self, now_us);

  return changed;
}

gint64
fc_rate_limits_get_limited_until (FcRateLimits *self,
                                  const char   *category,
                                  gint64        now_us)
{
  gint64 until;

  g_return_val_if_fail (FC_IS_RATE_LIMITS (self), 0);

  until = get_until (self, ALL_CATEGORIES);
  if (category != NULL)
    until = MAX (until, get_until (self, category));

  return until > now_us ? until : 0;
}

gboolean
fc_rate_limits_is_limited (FcRateLimits *self,
                           const char   *category,
                           gint64        now_us)
{
  return fc_rate_limits_get_limited_until (self, category, now_us) != 0;
}

void
fc_rate_limits_clear (FcRateLimits *self)
{
  g_return_if_fail (FC_IS_RATE_LIMITS (self));

  g_hash_table_remove_all (self->until);
  if (g_unlink (self->path) != 0 && errno != ENOENT)
    g_warning ("Cannot remove %s: %s", self->path, g_strerror (errno));
}

const char *
fc_rate_limits_category_for_item (const char *item_type,
                                  const char *platform)
{
  static const char * const ui_platforms[] = { "cocoa", "android", "javascript", NULL };

  g_return_val_if_fail (item_type != NULL, NULL);

  if (strcmp (item_type, "profile_chunk") == 0)
    {
      /* Relay bills chunks of UI platforms to their own category. */
      if (platform != NULL && g_strv_contains (ui_platforms, platform))
        return "profile_chunk_ui";
      return "profile_chunk";
    }
  if (strcmp (item_type, "event") == 0)
    return "error";
  if (strcmp (item_type, "session") == 0 || strcmp (item_type, "sessions") == 0)
    return "session";
  if (strcmp (item_type, "client_report") == 0)
    return "internal";
  return item_type;
}
