/* fuzz-rate-limits.c - Relay's rate-limit headers and the state file they are kept in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Input: "STATUS\nX-Sentry-Rate-Limits\nRetry-After\n" then the state file
 * the limits are loaded from. After an update, every category a header named
 * must answer consistently, and the file written back must load again.
 */

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "flamecast.h"
#include "fc-fuzz.h"

#define NOW_US G_GINT64_CONSTANT (1700000000000000)

static char *state_path;

static void
remove_state_dir (void)
{
  g_autofree char *dir = g_path_get_dirname (state_path);

  g_unlink (state_path);
  g_rmdir (dir);
}

static char *
next_line (const char **p,
           const char  *end)
{
  const char *nl = memchr (*p, '\n', end - *p);
  const char *stop = nl ? nl : end;
  char *line = g_strndup (*p, stop - *p);

  *p = nl ? nl + 1 : end;
  return line;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *p = (const char *) data;
  const char *end = p + size;
  g_autofree char *status_text = next_line (&p, end);
  g_autofree char *header = next_line (&p, end);
  g_autofree char *retry_after = next_line (&p, end);
  g_autoptr(FcRateLimits) limits = NULL;
  g_autoptr(FcRateLimits) reloaded = NULL;
  guint64 status = 0;
  gint64 delay = 0;

  if (state_path == NULL)
    {
      g_autofree char *dir = g_dir_make_tmp ("fc-fuzz-rate-limits-XXXXXX", NULL);

      g_assert (dir != NULL);
      state_path = g_build_filename (dir, "rate-limits.ini", NULL);
      atexit (remove_state_dir);
    }

  if (!g_file_set_contents (state_path, p, end - p, NULL))
    abort ();

  g_ascii_string_to_unsigned (status_text, 10, 0, 999, &status, NULL);
  limits = fc_rate_limits_new (state_path);
  fc_rate_limits_update (limits, status, *header ? header : NULL, *retry_after ? retry_after : NULL, NOW_US);

  if (fc_retry_after_parse (retry_after, NOW_US, &delay) && delay < 0)
    {
      fprintf (stderr, "Retry-After “%s” parsed to a delay of %" G_GINT64_FORMAT " µs\n", retry_after, delay);
      abort ();
    }

  /* What was saved loads back the same, category by category. */
  reloaded = fc_rate_limits_new (state_path);
  for (const char *const *c = (const char *const[]) { "profile_chunk", "profile_chunk_ui", "profile",
                                                      "transaction", "error", "default", NULL }; *c; c++)
    {
      gint64 until = fc_rate_limits_get_limited_until (limits, *c, NOW_US);

      if (until != 0 && until <= NOW_US)
        {
          fprintf (stderr, "%s limited until %" G_GINT64_FORMAT ", which is not after now\n", *c, until);
          abort ();
        }
      if (fc_rate_limits_get_limited_until (reloaded, *c, NOW_US) != until)
        {
          fprintf (stderr, "%s limited until %" G_GINT64_FORMAT " but %" G_GINT64_FORMAT " after a reload\n",
                   *c, until, fc_rate_limits_get_limited_until (reloaded, *c, NOW_US));
          abort ();
        }
    }
  return 0;
}
