/* fc-perf-map.c - /tmp/perf-PID.map, the names JIT runtimes give their code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format perf reads (tools/perf/Documentation/jit-interface.txt): one line per code
 * region, "START SIZE NAME", START and SIZE in hex without 0x. Node (--perf-basic-prof),
 * CPython 3.12+ (-X perf), Java (-XX:+DumpPerfMapAtExit, jcmd PID Compiler.perfmap) and .NET
 * (DOTNET_PerfMapEnabled=1) write it. It grows while the process runs, so it is read from
 * where the last read stopped, whole lines only; Java writes it only at exit, so the recorder
 * reads it once more at the end.
 *
 * In a PID namespace (a container) the runtime names the file after its own view of its pid,
 * under its own /tmp: the file is opened through /proc/PID/root with the innermost NSpid.
 */

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fc-perf-map.h"
#include "fc-procfs.h"

/* read at most this much per call: a huge map is taken in over several samples */
#define MAX_READ (8 * 1024 * 1024)

struct _FcPerfMap {
  char    *path;     /* in our file system (through /proc/PID/root from another namespace) */
  char    *name;     /* as the process sees it: /tmp/perf-PID.map */
  gint64   offset;   /* bytes taken so far */
  gboolean seen;
};

/* the pid the process sees itself as: the last NSpid in /proc/PID/status */
static int
namespace_pid (GPid pid)
{
  g_autofree char *dir = g_strdup_printf ("/proc/%d", pid);
  g_auto(FcProcStatus) status = { 0 };

  fc_procfs_read_status (dir, &status);
  return status.ns_pid > 0 ? status.ns_pid : pid;
}

/* The path of @path in @pid's file system, as we can open it; our own path when we share its
 * root, so that a file written at exit can be read when the process (and /proc/PID) is gone. */
char *
fc_perf_map_path_in_process (GPid        pid,
                             const char *path)
{
  g_autofree char *root = g_strdup_printf ("/proc/%d/root", pid);
  struct stat theirs, ours;

  if (stat (root, &theirs) == 0 && stat ("/", &ours) == 0 && theirs.st_dev == ours.st_dev &&
      theirs.st_ino == ours.st_ino)
    return g_strdup (path);
  return g_strconcat (root, path, NULL);
}

FcPerfMap *
fc_perf_map_new (GPid pid)
{
  FcPerfMap *self = g_new0 (FcPerfMap, 1);
  int ns_pid = namespace_pid (pid);

  self->name = g_strdup_printf ("/tmp/perf-%d.map", ns_pid);
  self->path = fc_perf_map_path_in_process (pid, self->name);
  return self;
}

void
fc_perf_map_free (FcPerfMap *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->name);
  g_free (self);
}

const char *
fc_perf_map_get_name (FcPerfMap *self)
{
  return self->name;
}

static gboolean
parse_hex (const char **p,
           const char  *end,
           guint64     *value)
{
  const char *s = *p;
  guint64 v = 0;
  guint digits = 0;

  if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    s += 2;
  for (; s < end && g_ascii_isxdigit (*s) && digits < 16; s++, digits++)
    v = v << 4 | (guint64) g_ascii_xdigit_value (*s);
  if (digits == 0 || (s < end && *s != ' '))
    return FALSE;
  *value = v;
  *p = s;
  return TRUE;
}

/**
 * fc_perf_map_parse_line:
 * @line: (array length=len): one line, without its newline
 *
 * Returns: FALSE when the line is not "START SIZE NAME"
 */
gboolean
fc_perf_map_parse_line (const char  *line,
                        gsize        len,
                        guint64     *start,
                        guint64     *size,
                        const char **name,
                        gsize       *name_len)
{
  const char *p = line, *end = line + len;

  if (!parse_hex (&p, end, start) || p >= end)
    return FALSE;
  p++;
  if (!parse_hex (&p, end, size) || p >= end)
    return FALSE;
  p++;
  while (end > p && (end[-1] == '\r' || end[-1] == ' '))
    end--;
  if (p >= end)
    return FALSE;
  *name = p;
  *name_len = end - p;
  return TRUE;
}

/**
 * fc_perf_map_read:
 *
 * Adds to @table the lines written since the last call.
 *
 * Returns: whether the map exists
 */
gboolean
fc_perf_map_read (FcPerfMap  *self,
                  FcJitTable *table)
{
  g_autofree char *buf = NULL;
  FILE *f = fopen (self->path, "re");
  gint64 size;
  gsize n, used = 0;

  if (f == NULL)
    return FALSE;
  self->seen = TRUE;
  if (fseeko (f, 0, SEEK_END) != 0 || (size = ftello (f)) < 0)
    {
      fclose (f);
      return TRUE;
    }
  /* a new map in the old one's place: start over */
  if (size < self->offset)
    self->offset = 0;
  n = (gsize) MIN (size - self->offset, MAX_READ);
  if (n == 0 || fseeko (f, self->offset, SEEK_SET) != 0)
    {
      fclose (f);
      return TRUE;
    }
  buf = g_malloc (n);
  n = fread (buf, 1, n, f);
  fclose (f);
  while (used < n)
    {
      const char *line = buf + used;
      const char *nl = memchr (line, '\n', n - used);
      guint64 start, length;
      const char *name;
      gsize name_len;

      /* a line still being written is taken next time */
      if (nl == NULL)
        break;
      if (fc_perf_map_parse_line (line, nl - line, &start, &length, &name, &name_len))
        fc_jit_table_add (table, start, length, name, name_len, NULL, -1);
      used = nl + 1 - buf;
    }
  self->offset += used;
  return TRUE;
}
