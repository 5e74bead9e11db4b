/* fc-jitdump.c - jit-PID.dump, the code a JIT compiler wrote, with names and lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format of perf's jitdump-specification.txt: a header (magic 0x4A695444 "JiTD" in the
 * writer's byte order, version, header size, ...), then records, each with an id, its total
 * size and a timestamp. Of the records, CODE_LOAD (0: name and address of new code),
 * CODE_MOVE (1) and DEBUG_INFO (2: lines of the code loaded next) name code; CLOSE (3) and
 * UNWINDING_INFO (4) are skipped. Node (--perf-prof), CPython 3.13 (-X perf_jit) and Java
 * agents write it; the runtime maps the file executable, which is how it is found in
 * /proc/PID/maps. It grows while the process runs: whole records are taken, the rest later.
 * A record that does not fit its own size ends the reading with an error naming the offset.
 */

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-format-error.h"
#include "fc-jitdump.h"
#include "fc-perf-map.h"

#define JITDUMP_MAGIC 0x4A695444
#define HEADER_SIZE 40
#define RECORD_HEADER 16
#define MAX_RECORD (64 * 1024 * 1024)
#define MAX_READ (8 * 1024 * 1024)

enum {
  JIT_CODE_LOAD = 0,
  JIT_CODE_MOVE = 1,
  JIT_CODE_DEBUG_INFO = 2,
};

struct _FcJitdump {
  GPid      pid;
  char     *path;      /* in our file system */
  char     *name;      /* as the process sees it */
  gint64    offset;    /* bytes taken so far */
  gboolean  header_read;
  gboolean  broken;
  /* DEBUG_INFO comes before the CODE_LOAD it describes */
  guint64   debug_addr;
  char     *debug_file;
  int       debug_line;
};

FcJitdump *
fc_jitdump_new (GPid        pid,
                const char *path)
{
  FcJitdump *self = g_new0 (FcJitdump, 1);

  self->pid = pid;
  self->name = g_strdup (path);
  self->path = fc_perf_map_path_in_process (pid, path);
  self->debug_line = -1;
  return self;
}

void
fc_jitdump_free (FcJitdump *self)
{
  if (self == NULL)
    return;
  g_free (self->debug_file);
  g_free (self->path);
  g_free (self->name);
  g_free (self);
}

const char *
fc_jitdump_get_path (FcJitdump *self)
{
  return self->name;
}

static guint32
u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return v;
}

static guint64
u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return v;
}

typedef struct {
  guint64  addr;
  char    *file;
  int      line;
} Debug;

/* Parses whole records of @data (the header first when @with_header); returns the bytes taken. */
static gsize
parse (const guint8 *data,
       gsize         len,
       gboolean      with_header,
       FcJitTable   *table,
       Debug        *debug,
       GError      **error)
{
  gsize at = 0;

  if (with_header)
    {
      guint32 header_size;

      if (len < HEADER_SIZE)
        return 0;
      if (u32 (data) != JITDUMP_MAGIC)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                       _("jitdump: magic 0x%08x, not 0x%08x (\"JiTD\" written on this machine)"), u32 (data), JITDUMP_MAGIC);
          return 0;
        }
      header_size = u32 (data + 8);
      if (header_size < HEADER_SIZE || header_size > 4096)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("jitdump: header size %u"), header_size);
          return 0;
        }
      if (len < header_size)
        return 0;
      at = header_size;
    }
  while (len - at >= RECORD_HEADER)
    {
      const guint8 *r = data + at;
      guint32 id = u32 (r), size = u32 (r + 4);
      const guint8 *body = r + RECORD_HEADER;
      gsize body_len;

      if (size < RECORD_HEADER || size > MAX_RECORD)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                       _("jitdump: record at byte %zu claims %u bytes"), at, size);
          return at;
        }
      if (len - at < size)
        break;
      body_len = size - RECORD_HEADER;
      if (id == JIT_CODE_LOAD && body_len > 40)
        {
          guint64 addr = u64 (body + 16), code_size = u64 (body + 24);
          const char *name = (const char *) body + 40;
          gsize name_len = strnlen (name, body_len - 40);

          if (name_len < body_len - 40)
            fc_jit_table_add (table, addr, code_size, name, name_len,
                              debug->addr == addr ? debug->file : NULL, debug->addr == addr ? debug->line : -1);
        }
      else if (id == JIT_CODE_MOVE && body_len >= 48)
        fc_jit_table_move (table, u64 (body + 16), u64 (body + 24));
      else if (id == JIT_CODE_DEBUG_INFO && body_len >= 16)
        {
          guint64 n_entries = u64 (body + 8);

          g_clear_pointer (&debug->file, g_free);
          debug->addr = u64 (body);
          debug->line = -1;
          /* the first entry's line: where the function starts */
          if (n_entries > 0 && body_len >= 16 + 16 + 1)
            {
              const char *file = (const char *) body + 32;
              gsize file_len = strnlen (file, body_len - 32);

              /* "\xff": the same file as the entry before (V8), here: none known */
              if (file_len < body_len - 32 && !(file_len == 1 && (guint8) file[0] == 0xff))
                {
                  debug->line = (gint32) u32 (body + 24);
                  debug->file = g_strndup (file, file_len);
                }
            }
        }
      at += size;
    }
  return at;
}

/**
 * fc_jitdump_parse:
 *
 * Adds the code regions of whole records in @data to @table (for tests and fuzzing).
 *
 * Returns: the bytes taken; 0 with @error when @data is no jitdump
 */
gsize
fc_jitdump_parse (const guint8 *data,
                  gsize         len,
                  gboolean      with_header,
                  FcJitTable   *table,
                  GError      **error)
{
  Debug debug = { 0, NULL, -1 };
  gsize n = parse (data, len, with_header, table, &debug, error);

  g_free (debug.file);
  return n;
}

/**
 * fc_jitdump_read:
 *
 * Adds to @table the records written since the last call.
 *
 * Returns: FALSE with @error when the file cannot be read or is not a jitdump (reading
 *   then stops for good)
 */
gboolean
fc_jitdump_read (FcJitdump   *self,
                 FcJitTable  *table,
                 GError     **error)
{
  g_autofree guint8 *buf = NULL;
  Debug debug = { self->debug_addr, self->debug_file, self->debug_line };
  g_autoptr(GError) local_error = NULL;
  gint64 end;
  gssize n;
  gsize used;
  int fd;

  if (self->broken)
    return FALSE;
  /* sandboxed, the host's process maps the file the helper opens (runtimes map it so that perf
   * finds it); our file system does not have it */
  fd = fc_access_through_helper (self->pid) ? fc_access_open_mapped (self->pid, self->name)
                                            : open (self->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), "%s: %s", self->name, g_strerror (err));
      return FALSE;
    }
  end = lseek (fd, 0, SEEK_END);
  if (end <= self->offset)
    {
      close (fd);
      return TRUE;
    }
  buf = g_malloc (MIN (end - self->offset, MAX_READ));
  n = pread (fd, buf, MIN (end - self->offset, MAX_READ), self->offset);
  close (fd);
  if (n <= 0)
    return TRUE;
  used = parse (buf, n, !self->header_read, table, &debug, &local_error);
  self->debug_addr = debug.addr;
  self->debug_file = debug.file;
  self->debug_line = debug.line;
  if (local_error != NULL)
    {
      /* what does not parse now never will: the reading stops here */
      self->broken = TRUE;
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", self->name);
      return FALSE;
    }
  if (used > 0)
    self->header_read = TRUE;
  self->offset += used;
  return TRUE;
}
