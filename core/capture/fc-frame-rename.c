/* fc-frame-rename.c - a chunk again with some frames named anew (JIT code named at exit)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A live chunk's frames are published to readers as they are interned and never change. When
 * names arrive late (Java writes its perf map at exit, after the samples that needed it), the
 * chunk that is written and sent is a copy with those frames named; the live one stays as the
 * views saw it.
 */

#include "fc-frame-rename.h"

static guint32
copy_string (FcProfile *dst,
             FcProfile *src,
             guint32    id)
{
  return id == FC_STRING_NONE ? FC_STRING_NONE : fc_profile_intern (dst, fc_profile_string (src, id));
}

/**
 * fc_frame_rename_copy:
 * @renamed: frame id (GUINT_TO_POINTER) -> the const FcSymbol * that names it now
 *
 * Returns: (transfer full): a copy of @src (metadata, threads, samples), not finished
 */
FcProfile *
fc_frame_rename_copy (FcProfile  *src,
                      GHashTable *renamed)
{
  FcProfile *dst = fc_profile_new (fc_profile_get_format (src));
  JsonObject *src_meta = fc_profile_get_meta (src);
  JsonObject *dst_meta = fc_profile_get_meta (dst);
  guint n_frames = fc_profile_get_n_frames (src), n_stacks = 0, n_samples = 0;
  const FcStackNode *stacks = fc_profile_get_stacks (src, &n_stacks);
  const FcSample *samples = fc_profile_get_samples (src, &n_samples);
  g_autofree guint32 *frames = g_new (guint32, MAX (n_frames, 1));
  g_autofree guint32 *stack_ids = g_new (guint32, MAX (n_stacks, 1));
  g_autofree guint32 *threads = g_new (guint32, MAX (fc_profile_get_n_threads (src), 1));
  g_autoptr(GList) members = json_object_get_members (src_meta);

  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (dst_meta, l->data, json_node_copy (json_object_get_member (src_meta, l->data)));
  fc_profile_copy_sdk_and_images (dst, src);

  for (guint i = 0; i < n_frames; i++)
    {
      FcFrame f = *fc_profile_get_frame (src, i);
      const FcSymbol *sym = g_hash_table_lookup (renamed, GUINT_TO_POINTER (i));

      f.function = copy_string (dst, src, f.function);
      f.module = copy_string (dst, src, f.module);
      f.package = copy_string (dst, src, f.package);
      f.filename = copy_string (dst, src, f.filename);
      f.abs_path = copy_string (dst, src, f.abs_path);
      f.platform = copy_string (dst, src, f.platform);
      f.extra = copy_string (dst, src, f.extra);
      if (sym != NULL)
        {
          f.function = fc_profile_intern (dst, sym->function);
          f.abs_path = sym->abs_path != NULL ? fc_profile_intern (dst, sym->abs_path) : FC_STRING_NONE;
          f.filename = sym->filename != NULL ? fc_profile_intern (dst, sym->filename) : FC_STRING_NONE;
          f.lineno = sym->lineno > 0 ? sym->lineno : FC_LINE_NONE;
          f.in_app = sym->in_app ? FC_IN_APP_YES : FC_IN_APP_NO;
        }
      frames[i] = fc_profile_intern_frame (dst, &f);
    }
  /* parents come before their children: stack ids map in order */
  stack_ids[FC_STACK_EMPTY] = FC_STACK_EMPTY;
  for (guint s = 1; s < n_stacks; s++)
    stack_ids[s] = fc_profile_intern_stack (dst, stack_ids[stacks[s].parent], frames[stacks[s].frame]);
  for (guint t = 0; t < fc_profile_get_n_threads (src); t++)
    {
      const FcThread *from = fc_profile_get_thread (src, t);
      FcThread *to;

      threads[t] = fc_profile_ensure_thread (dst, fc_profile_string (src, from->tid));
      if (from->name != FC_STRING_NONE)
        fc_profile_set_thread_name (dst, threads[t], fc_profile_string (src, from->name));
      to = fc_profile_get_thread_mut (dst, threads[t]);
      to->priority = from->priority;
      to->has_metadata = from->has_metadata;
      to->extra = copy_string (dst, src, from->extra);
    }
  for (guint i = 0; i < n_samples; i++)
    fc_profile_append_sample (dst, samples[i].timestamp_ns, threads[samples[i].thread], stack_ids[samples[i].stack],
                              copy_string (dst, src, samples[i].extra));
  return dst;
}
