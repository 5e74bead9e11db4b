/* fc-procfs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-procfs.h"

gboolean
fc_procfs_parse_stat (const char *text,
                      FcProcStat *stat)
{
  /* the last ")" ends the command name, whatever it holds */
  const char *p = text != NULL ? strrchr (text, ')') : NULL;

  memset (stat, 0, sizeof *stat);
  if (p == NULL || p[1] != ' ' || p[2] == '\0')
    return FALSE;
  stat->state = p[2];
  p += 3;
  for (int field = 4; *p != '\0' && field <= 22; field++)
    {
      char *end;
      gint64 value;

      while (*p == ' ')
        p++;
      value = g_ascii_strtoll (p, &end, 10);
      if (end == p)
        break;
      switch (field)
        {
        case 4: stat->ppid = (int) value; break;
        case 9: stat->flags = (guint64) value; break;
        case 14: stat->utime = (guint64) value; break;
        case 15: stat->stime = (guint64) value; break;
        case 18: stat->priority = value; break;
        case 22: stat->start_time = (guint64) value; break;
        default: break;
        }
      p = end;
    }
  return TRUE;
}

static int
parse_int (const char *value)
{
  char *end;
  gint64 v = g_ascii_strtoll (value, &end, 10);

  return end == value || v < G_MININT || v > G_MAXINT ? -1 : (int) v;
}

void
fc_procfs_parse_status (const char   *text,
                        FcProcStatus *status)
{
  memset (status, 0, sizeof *status);
  status->tgid = status->pid = status->ppid = status->tracer_pid = status->ns_pid = -1;
  for (guint i = 0; i < G_N_ELEMENTS (status->uid); i++)
    status->uid[i] = -1;

  while (text != NULL && *text != '\0')
    {
      const char *eol = strchr (text, '\n');
      const char *colon = memchr (text, ':', eol ? (gsize) (eol - text) : strlen (text));
      g_autofree char *value = NULL;

      if (colon != NULL)
        {
          gsize key_len = colon - text;
          const char *key = text;

          value = g_strstrip (g_strndup (colon + 1, eol ? (gsize) (eol - colon - 1) : strlen (colon + 1)));
#define IS(k) (key_len == sizeof (k) - 1 && strncmp (key, k, key_len) == 0)
          if (IS ("Name"))
            status->name = g_steal_pointer (&value);
          else if (IS ("State"))
            status->state = value[0];
          else if (IS ("Tgid"))
            status->tgid = parse_int (value);
          else if (IS ("Pid"))
            status->pid = parse_int (value);
          else if (IS ("PPid"))
            status->ppid = parse_int (value);
          else if (IS ("TracerPid"))
            status->tracer_pid = parse_int (value);
          else if (IS ("Threads"))
            status->n_threads = (guint) MAX (parse_int (value), 0);
          else if (IS ("CapEff"))
            status->cap_eff = g_ascii_strtoull (value, NULL, 16);
          else if (IS ("Uid") || IS ("NSpid"))
            {
              g_auto(GStrv) fields = g_strsplit_set (value, " \t", -1);
              guint n = 0;

              for (guint j = 0; fields[j] != NULL; j++)
                {
                  if (*fields[j] == '\0')
                    continue;
                  if (IS ("NSpid"))
                    status->ns_pid = parse_int (fields[j]);
                  else if (n < G_N_ELEMENTS (status->uid))
                    status->uid[n++] = parse_int (fields[j]);
                }
            }
#undef IS
        }
      if (eol == NULL)
        break;
      text = eol + 1;
    }
}

static char *
read_entry (const char *dir,
            const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) ? contents : NULL;
}

gboolean
fc_procfs_read_stat (const char *dir,
                     FcProcStat *stat)
{
  g_autofree char *text = read_entry (dir, "stat");

  return fc_procfs_parse_stat (text, stat);
}

gboolean
fc_procfs_read_status (const char   *dir,
                       FcProcStatus *status)
{
  g_autofree char *text = read_entry (dir, "status");

  fc_procfs_parse_status (text, status);
  return text != NULL;
}

void
fc_procfs_status_clear (FcProcStatus *status)
{
  g_clear_pointer (&status->name, g_free);
}
