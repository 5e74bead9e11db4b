/* fc-python-code.c - names, files and lines of Python code objects, cached by address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * It runs on the sampler thread, next to the frame reads (fc-python-stack.c): a code object is
 * read while the frame that runs it is there, not later, when the worker may find the process
 * gone. A code object is immutable while it lives, so it is read once: its qualified name, file,
 * first line and location table become a cache entry, and each line it is seen at a symbol
 * (one Python frame of a profile). Its address may be reused for another object after it is
 * freed: before a sample's frames are named, the cached code objects they point to are read
 * again (their type and the pointers to their name, file and line table), all in one
 * process_vm_readv, and an entry that no longer matches is dropped. Its symbols stay alive
 * (samples on their way point to them) until the cache goes.
 */

#include <string.h>
#include <sys/uio.h>

#include "fc-in-app.h"
#include "fc-python-code.h"
#include "fc-python-linetable.h"

#define MAX_NAME_CHARS 1024
#define MAX_LINETABLE (1024 * 1024)
#define CHECK_BATCH 64

typedef struct {
  guint64     ident[5];     /* ob_type, co_qualname, co_filename, co_linetable, co_firstlineno */
  int         firstlineno;
  char       *qualname;
  char       *abs_path;
  char       *filename;
  char       *module;
  gboolean    in_app;
  GArray     *lines;        /* FcPythonLineRange */
  GHashTable *symbols;      /* line + 1 -> FcSymbol* */
} Code;

typedef struct {
  guint64  ident[3];        /* ob_type, length, hash */
  char    *text;
} String;

struct _FcPythonCodes {
  FcPythonRuntime runtime;
  gsize           header_size;  /* bytes of a code object read to check it */
  GHashTable     *codes;        /* address -> Code* */
  GHashTable     *strings;      /* address -> String* */
  GPtrArray      *retired;      /* FcSymbol* of dropped entries */
};

static void
code_free (Code *code)
{
  g_free (code->qualname);
  g_free (code->abs_path);
  g_free (code->filename);
  g_free (code->module);
  if (code->lines != NULL)
    g_array_unref (code->lines);
  if (code->symbols != NULL)
    g_hash_table_unref (code->symbols);
  g_free (code);
}

static void
string_free (String *s)
{
  g_free (s->text);
  g_free (s);
}

FcPythonCodes *
fc_python_codes_new (const FcPythonRuntime *runtime)
{
  FcPythonCodes *self = g_new0 (FcPythonCodes, 1);
  const FcPythonLayout *l = &runtime->layout;

  self->runtime = *runtime;
  self->header_size = MAX (MAX (MAX (l->ob_type, l->code_qualname), MAX (l->code_filename, l->code_linetable)),
                           MAX (l->code_firstlineno, l->code_name)) + 8;
  self->codes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) code_free);
  self->strings = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) string_free);
  self->retired = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_symbol_free);
  return self;
}

void
fc_python_codes_free (FcPythonCodes *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->codes);
  g_hash_table_unref (self->strings);
  g_ptr_array_unref (self->retired);
  g_free (self);
}

const FcPythonRuntime *
fc_python_codes_get_runtime (FcPythonCodes *self)
{
  return &self->runtime;
}

guint
fc_python_codes_get_n_cached (FcPythonCodes *self)
{
  return g_hash_table_size (self->codes);
}

static guint64
field64 (const guint8 *buf,
         guint64       offset)
{
  guint64 v;

  memcpy (&v, buf + offset, 8);
  return v;
}

static gint32
field32 (const guint8 *buf,
         guint64       offset)
{
  gint32 v;

  memcpy (&v, buf + offset, 4);
  return v;
}

static void
code_ident (FcPythonCodes *self,
            const guint8  *header,
            guint64       *ident)
{
  const FcPythonLayout *l = &self->runtime.layout;

  ident[0] = field64 (header, l->ob_type);
  ident[1] = field64 (header, l->code_qualname);
  ident[2] = field64 (header, l->code_filename);
  ident[3] = field64 (header, l->code_linetable);
  ident[4] = (guint32) field32 (header, l->code_firstlineno);
}

/* A compact str (every name and file name CPython makes), as UTF-8; NULL when @addr holds none. */
static char *
read_unicode (FcPythonCodes *self,
              guint64        addr)
{
  const FcPythonLayout *l = &self->runtime.layout;
  guint8 header[128];
  gsize header_size = MAX (l->unicode_compact_data, l->unicode_state + 4);
  guint64 ident[3];
  guint32 state;
  gint64 length;
  guint kind;
  gboolean ascii;
  String *cached;
  g_autofree guint8 *data = NULL;
  GString *out;

  if (addr < 4096 || (addr & 7) != 0 || header_size > sizeof header ||
      !fc_process_read (self->runtime.pid, addr, header, header_size))
    return NULL;
  ident[0] = field64 (header, l->ob_type);
  ident[1] = field64 (header, l->unicode_length);
  ident[2] = field64 (header, l->unicode_length + 8);  /* the hash follows the length */
  if (ident[0] != self->runtime.unicode_type)
    return NULL;
  cached = g_hash_table_lookup (self->strings, &addr);
  if (cached != NULL && memcmp (cached->ident, ident, sizeof ident) == 0)
    return g_strdup (cached->text);

  memcpy (&state, header + l->unicode_state, 4);
  kind = (state >> 2) & 7;
  ascii = (state >> 6) & 1;
  length = (gint64) ident[1];
  /* only compact strings keep their characters right after the header */
  if (((state >> 5) & 1) == 0 || (kind != 1 && kind != 2 && kind != 4) || length < 0)
    return NULL;
  length = MIN (length, MAX_NAME_CHARS);
  data = g_malloc (length * kind + 1);
  if (!fc_process_read (self->runtime.pid, addr + (ascii ? l->unicode_ascii_data : l->unicode_compact_data),
                        data, length * kind))
    return NULL;
  out = g_string_sized_new (length + 1);
  for (gint64 i = 0; i < length; i++)
    {
      gunichar c;

      if (kind == 1)
        c = data[i];
      else if (kind == 2)
        c = (gunichar) data[2 * i] | (gunichar) data[2 * i + 1] << 8;
      else
        c = (gunichar) data[4 * i] | (gunichar) data[4 * i + 1] << 8 | (gunichar) data[4 * i + 2] << 16 |
            (gunichar) data[4 * i + 3] << 24;
      if ((ascii && c > 127) || !g_unichar_validate (c) || c == 0)
        {
          g_string_free (out, TRUE);
          return NULL;
        }
      g_string_append_unichar (out, c);
    }
  cached = g_new0 (String, 1);
  memcpy (cached->ident, ident, sizeof ident);
  cached->text = g_strdup (out->str);
  g_hash_table_replace (self->strings, g_memdup2 (&addr, sizeof addr), cached);
  return g_string_free (out, FALSE);
}

static GBytes *
read_bytes (FcPythonCodes *self,
            guint64        addr)
{
  const FcPythonLayout *l = &self->runtime.layout;
  guint8 header[64];
  gint64 size;
  guint8 *data;

  if (addr < 4096 || (addr & 7) != 0 || l->bytes_data > sizeof header ||
      !fc_process_read (self->runtime.pid, addr, header, l->bytes_data) ||
      field64 (header, l->ob_type) != self->runtime.bytes_type)
    return NULL;
  size = (gint64) field64 (header, l->bytes_size);
  if (size < 0 || size > MAX_LINETABLE)
    return NULL;
  data = g_malloc (size + 1);
  if (!fc_process_read (self->runtime.pid, addr + l->bytes_data, data, size))
    {
      g_free (data);
      return NULL;
    }
  return g_bytes_new_take (data, size);
}

/* "<frozen importlib._bootstrap>" names its module; a file in site-packages, dist-packages or
 * the standard library is named from there; a file of the application from its package
 * directories (those with an __init__.py), read in the target's file system. */
void
fc_python_module_for_path (GPid         pid,
                           const char  *abs_path,
                           char       **module,
                           char       **filename)
{
  static const char * const roots[] = { "/site-packages/", "/dist-packages/" };
  g_autofree char *rel = NULL;
  const char *p;
  char *dot;

  *module = NULL;
  *filename = NULL;
  if (abs_path == NULL || abs_path[0] == 0)
    return;
  if (abs_path[0] == '<')
    {
      if (g_str_has_prefix (abs_path, "<frozen ") && g_str_has_suffix (abs_path, ">"))
        *module = g_strndup (abs_path + 8, strlen (abs_path) - 9);
      *filename = g_strdup (abs_path);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (roots) && rel == NULL; i++)
    if ((p = g_strrstr (abs_path, roots[i])) != NULL)
      rel = g_strdup (p + strlen (roots[i]));
  /* the standard library: .../lib/python3.11/json/decoder.py */
  if (rel == NULL && (p = g_strrstr (abs_path, "/lib/python")) != NULL &&
      g_ascii_isdigit (p[11]) && (p = strchr (p + 11, '/')) != NULL)
    rel = g_strdup (p + 1);
  if (rel == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (abs_path);
      GString *path = g_string_new (NULL);
      g_autofree char *base = g_path_get_basename (abs_path);

      g_string_assign (path, base);
      for (guint depth = 0; depth < 16 && g_path_is_absolute (dir) && strcmp (dir, "/") != 0; depth++)
        {
          g_autofree char *init = g_strdup_printf ("/proc/%d/root%s/__init__.py", pid, dir);
          g_autofree char *parent = NULL;
          g_autofree char *name = NULL;

          if (!g_file_test (init, G_FILE_TEST_EXISTS))
            break;
          name = g_path_get_basename (dir);
          g_string_prepend_c (path, '/');
          g_string_prepend (path, name);
          parent = g_path_get_dirname (dir);
          g_free (dir);
          dir = g_steal_pointer (&parent);
        }
      rel = g_string_free (path, FALSE);
    }
  *filename = g_strdup (rel);
  if (g_str_has_suffix (rel, ".py"))
    rel[strlen (rel) - 3] = 0;
  if (g_str_has_suffix (rel, "/__init__"))
    rel[strlen (rel) - 9] = 0;
  for (dot = rel; *dot; dot++)
    if (*dot == '/')
      *dot = '.';
  *module = g_steal_pointer (&rel);
}

static Code *
read_code (FcPythonCodes *self,
           guint64        addr)
{
  const FcPythonLayout *l = &self->runtime.layout;
  guint8 header[512];
  g_autoptr(GBytes) linetable = NULL;
  Code *code;

  if (self->header_size > sizeof header || !fc_process_read (self->runtime.pid, addr, header, self->header_size) ||
      field64 (header, l->ob_type) != self->runtime.code_type)
    return NULL;
  code = g_new0 (Code, 1);
  code_ident (self, header, code->ident);
  code->firstlineno = field32 (header, l->code_firstlineno);
  code->qualname = read_unicode (self, field64 (header, l->code_qualname));
  if (code->qualname == NULL)
    code->qualname = read_unicode (self, field64 (header, l->code_name));
  code->abs_path = read_unicode (self, field64 (header, l->code_filename));
  linetable = read_bytes (self, field64 (header, l->code_linetable));
  if (code->qualname == NULL || code->abs_path == NULL || linetable == NULL)
    {
      /* torn: the object was being freed, or is not what it seemed */
      code_free (code);
      return NULL;
    }
  code->lines = fc_python_linetable_decode (g_bytes_get_data (linetable, NULL), g_bytes_get_size (linetable),
                                            code->firstlineno);
  fc_python_module_for_path (self->runtime.pid, code->abs_path, &code->module, &code->filename);
  code->in_app = fc_in_app_rules_infer (NULL, "python", code->abs_path, code->filename, code->module, NULL) ==
                 FC_IN_APP_YES;
  code->symbols = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) fc_symbol_free);
  return code;
}

static void
retire (FcPythonCodes *self,
        guint64        addr)
{
  Code *code = g_hash_table_lookup (self->codes, &addr);
  GHashTableIter iter;
  gpointer value;

  if (code == NULL)
    return;
  g_hash_table_iter_init (&iter, code->symbols);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (self->retired, value);
  g_hash_table_steal_all (code->symbols);
  g_hash_table_remove (self->codes, &addr);
}

/**
 * fc_python_codes_check:
 * @codes: (array length=n_codes): code object addresses of one stack (0s are skipped)
 *
 * Reads the cached code objects among @codes again, in one system call, and drops the
 * entries whose address now holds something else.
 */
void
fc_python_codes_check (FcPythonCodes       *self,
                       const guint64       *codes,
                       guint                n_codes)
{
  struct iovec local[CHECK_BATCH], remote[CHECK_BATCH];
  guint64 addrs[CHECK_BATCH];
  g_autofree guint8 *buf = g_malloc (CHECK_BATCH * self->header_size);
  guint n = 0;

  for (guint i = 0; i <= n_codes; i++)
    {
      gboolean last = i == n_codes;
      guint64 addr = last ? 0 : codes[i];
      gboolean seen = FALSE;

      if (!last && (addr == 0 || !g_hash_table_contains (self->codes, &addr)))
        continue;
      for (guint k = 0; k < n && !last; k++)
        seen |= addrs[k] == addr;
      if (!last && !seen)
        {
          addrs[n] = addr;
          local[n].iov_base = buf + n * self->header_size;
          local[n].iov_len = self->header_size;
          remote[n].iov_base = GSIZE_TO_POINTER (addr);
          remote[n].iov_len = self->header_size;
          n++;
        }
      if (n > 0 && (n == CHECK_BATCH || last))
        {
          ssize_t got = process_vm_readv (self->runtime.pid, local, n, remote, n, 0);
          for (guint k = 0; k < n; k++)
            {
              Code *code = g_hash_table_lookup (self->codes, &addrs[k]);
              guint64 ident[5];

              if (got < (ssize_t) ((k + 1) * self->header_size))
                {
                  retire (self, addrs[k]);
                  continue;
                }
              code_ident (self, buf + k * self->header_size, ident);
              if (memcmp (ident, code->ident, sizeof ident) != 0)
                retire (self, addrs[k]);
            }
          n = 0;
        }
    }
}

/**
 * fc_python_codes_lookup:
 * @unit: the code unit executing, -1 before the first
 *
 * Returns: (nullable): the Python frame of @code at @unit, owned by the cache; NULL when
 *   @code does not hold a code object
 */
const FcSymbol *
fc_python_codes_lookup (FcPythonCodes *self,
                        guint64        addr,
                        int            unit)
{
  Code *code = g_hash_table_lookup (self->codes, &addr);
  FcSymbol *sym;
  int line;

  if (code == NULL)
    {
      code = read_code (self, addr);
      if (code == NULL)
        return NULL;
      g_hash_table_insert (self->codes, g_memdup2 (&addr, sizeof addr), code);
    }
  line = fc_python_linetable_line (code->lines, code->firstlineno, unit);
  sym = g_hash_table_lookup (code->symbols, GINT_TO_POINTER (line + 1));
  if (sym != NULL)
    return sym;
  sym = g_new0 (FcSymbol, 1);
  sym->function = g_strdup (code->qualname);
  sym->abs_path = g_strdup (code->abs_path);
  sym->filename = g_strdup (code->filename);
  sym->module_name = g_strdup (code->module);
  sym->lineno = line > 0 ? line : -1;
  sym->in_app = code->in_app;
  sym->platform = "python";
  g_hash_table_insert (code->symbols, GINT_TO_POINTER (line + 1), sym);
  return sym;
}
