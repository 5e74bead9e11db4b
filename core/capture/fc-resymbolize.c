/* fc-resymbolize.c - a document's unnamed machine-code frames named by debug info fetched later
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recorder's symbolizer waits a while for debuginfod and then names what
 * it can; frames sampled before the debug file came, or recorded elsewhere,
 * stay "module+0x...". The debug file alone (no running process, no load
 * address) names them: OFFSET is an address in the file's own layout.
 */

#include <string.h>

#include <elfutils/libdwfl.h>

#include "fc-chunk-meta.h"
#include "fc-debuginfod.h"
#include "fc-demangle.h"
#include "fc-dwfl-callbacks.h"
#include "fc-frame-rename.h"
#include "fc-resymbolize.h"

typedef struct {
  char  *path;   /* the debug file, NULL while it is not there */
  Dwfl  *dwfl;
  Dwfl_Module *mod;
} DebugFile;

static void
debug_file_free (DebugFile *d)
{
  if (d->dwfl != NULL)
    dwfl_end (d->dwfl);
  g_free (d->path);
  g_free (d);
}

static gboolean
parse_build_id (const char *hex,
                guint8     *out,
                gsize      *len)
{
  gsize n = hex != NULL ? strlen (hex) : 0;

  if (n == 0 || n % 2 != 0 || n / 2 > 64)
    return FALSE;
  for (gsize i = 0; i < n / 2; i++)
    {
      int hi = g_ascii_xdigit_value (hex[2 * i]), lo = g_ascii_xdigit_value (hex[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      out[i] = (guint8) (hi << 4 | lo);
    }
  *len = n / 2;
  return TRUE;
}

/* The debug file of @module's image in @profile, asked for when it was not; NULL while it is not
 * there. One DebugFile per module path per call, in @files. */
static DebugFile *
debug_file_for (GHashTable *files,
                FcProfile  *profile,
                const char *module)
{
  DebugFile *d = g_hash_table_lookup (files, module);
  const FcDebugImage *image;
  guint8 id[64];
  gsize len;

  if (d != NULL)
    return d->mod != NULL ? d : NULL;
  d = g_new0 (DebugFile, 1);
  g_hash_table_insert (files, g_strdup (module), d);
  image = fc_profile_find_image (profile, module);
  if (image == NULL || !parse_build_id (image->code_id != NULL ? image->code_id : image->debug_id, id, &len))
    return NULL;
  fc_debuginfod_request (id, len, module);
  d->path = fc_debuginfod_wait (id, len, 0);
  if (d->path == NULL)
    return NULL;
  d->dwfl = dwfl_begin (fc_dwfl_callbacks_for_debug_file ());
  /* bias 0: the module's addresses are the file's own */
  d->mod = dwfl_report_elf (d->dwfl, module, d->path, -1, 0, false);
  dwfl_report_end (d->dwfl, NULL, NULL);
  return d->mod != NULL ? d : NULL;
}

/* "libfoo.so.1+0x1a2b" for a frame of /usr/lib/libfoo.so.1: 0x1a2b; FALSE for any other name */
static gboolean
unnamed_offset (const char *function,
                const char *module,
                guint64    *offset)
{
  const char *base = strrchr (module, '/');
  gsize n;
  char *end;

  base = base != NULL ? base + 1 : module;
  n = strlen (base);
  if (strncmp (function, base, n) != 0 || strncmp (function + n, "+0x", 3) != 0 || function[n + 3] == '\0')
    return FALSE;
  *offset = g_ascii_strtoull (function + n + 3, &end, 16);
  return *end == '\0';
}

static FcSymbol *
lookup (DebugFile *d,
        guint64    addr)
{
  const char *name = dwfl_module_addrname (d->mod, addr);
  Dwfl_Line *line;
  FcSymbol *sym;

  if (name == NULL || name[0] == '\0')
    return NULL;
  sym = g_new0 (FcSymbol, 1);
  {
    /* "__libc_start_main@@GLIBC_2.34": the symbol version is not part of the name */
    g_autofree char *plain = g_strndup (name, strcspn (name, "@"));
    sym->function = fc_demangle (plain[0] != '\0' ? plain : name);
  }
  sym->lineno = -1;
  if ((line = dwfl_module_getsrc (d->mod, addr)) != NULL)
    {
      int lineno = -1;
      const char *src = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);
      const char *comp_dir = dwfl_line_comp_dir (line);

      if (src != NULL)
        {
          sym->abs_path = g_path_is_absolute (src) || comp_dir == NULL ? g_strdup (src)
                                                                       : g_canonicalize_filename (src, comp_dir);
          sym->filename = g_path_get_basename (src);
          sym->lineno = lineno > 0 ? lineno : -1;
        }
    }
  return sym;
}

/* @profile copied with its frames named, or NULL when none is */
static FcProfile *
resymbolize_profile (FcProfile *profile,
                     GHashTable *files,
                     guint      *n_renamed)
{
  g_autoptr(GHashTable) renamed = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_symbol_free);
  FcProfile *copy;

  for (guint i = 0; i < fc_profile_get_n_frames (profile); i++)
    {
      const FcFrame *f = fc_profile_get_frame (profile, i);
      guint32 module_id = f->package != FC_STRING_NONE ? f->package : f->module;
      const char *function, *module;
      DebugFile *d;
      FcSymbol *sym;
      guint64 offset;

      if (f->function == FC_STRING_NONE || module_id == FC_STRING_NONE || f->platform != FC_STRING_NONE)
        continue;
      function = fc_profile_string (profile, f->function);
      module = fc_profile_string (profile, module_id);
      if (!unnamed_offset (function, module, &offset) || (d = debug_file_for (files, profile, module)) == NULL ||
          (sym = lookup (d, offset)) == NULL)
        continue;
      sym->in_app = f->in_app == FC_IN_APP_YES;
      g_ptr_array_add (symbols, sym);
      g_hash_table_insert (renamed, GUINT_TO_POINTER (i), sym);
    }
  if (g_hash_table_size (renamed) == 0)
    return NULL;
  *n_renamed += g_hash_table_size (renamed);
  copy = fc_frame_rename_copy (profile, renamed);
  fc_profile_finish (copy);
  return copy;
}

FcDocument *
fc_resymbolize_document (FcDocument *document,
                         guint      *n_renamed)
{
  g_autoptr(GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) debug_file_free);
  g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func (g_object_unref);
  FcDocument *copy;
  JsonObject *header;
  guint n = 0;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  if (n_renamed != NULL)
    *n_renamed = 0;
  if (!fc_debuginfod_enabled ())
    return NULL;
  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      FcProfile *profile = fc_document_get_profile (document, i);
      FcProfile *renamed = resymbolize_profile (profile, files, &n);

      /* a module's frames are named alike in every chunk: its debug file is read once */
      g_ptr_array_add (profiles, renamed != NULL ? renamed : g_object_ref (profile));
    }
  if (n == 0)
    return NULL;

  copy = fc_document_new (fc_document_get_kind (document));
  for (guint i = 0; i < profiles->len; i++)
    fc_document_add_profile (copy, g_ptr_array_index (profiles, i));
  for (guint i = 0; i < fc_document_get_n_transactions (document); i++)
    fc_document_add_transaction (copy, fc_document_get_transaction (document, i));
  if ((header = fc_document_get_envelope_header (document)) != NULL)
    fc_document_set_envelope_header (copy, header);
  for (guint i = 0; i < fc_document_get_n_other_items (document); i++)
    {
      const FcEnvelopeItem *item = fc_document_get_other_item (document, i);

      fc_document_add_other_item (copy, item->header, item->payload);
    }
  for (guint i = 0; i < fc_document_get_problems (document)->len; i++)
    {
      const FcProblem *p = g_ptr_array_index (fc_document_get_problems (document), i);

      fc_document_add_problem (copy, fc_problem_new (p->severity, p->location, "%s", p->message));
    }
  if (n_renamed != NULL)
    *n_renamed = n;
  return copy;
}

typedef struct {
  FcDocument *document;
  FcProfile  *merged;
} Result;

static void
result_free (Result *r)
{
  g_clear_object (&r->document);
  g_clear_object (&r->merged);
  g_free (r);
}

static void
resymbolize_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  Result *r = g_new0 (Result, 1);

  r->document = fc_resymbolize_document (task_data, NULL);
  if (r->document != NULL && !g_cancellable_is_cancelled (cancellable))
    r->merged = fc_document_dup_merged_profile (r->document);
  g_task_return_pointer (task, r, (GDestroyNotify) result_free);
}

void
fc_resymbolize_document_async (FcDocument          *document,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (FC_IS_DOCUMENT (document));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_resymbolize_document_async);
  g_task_set_task_data (task, g_object_ref (document), g_object_unref);
  g_task_run_in_thread (task, resymbolize_thread);
}

FcDocument *
fc_resymbolize_document_finish (GAsyncResult  *result,
                                FcProfile    **merged_profile,
                                GError       **error)
{
  Result *r;
  FcDocument *document;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  r = g_task_propagate_pointer (G_TASK (result), error);
  if (r == NULL || r->document == NULL || r->merged == NULL)
    {
      if (r != NULL)
        result_free (r);
      return NULL;
    }
  if (merged_profile != NULL)
    *merged_profile = g_steal_pointer (&r->merged);
  document = g_steal_pointer (&r->document);
  result_free (r);
  return document;
}
