/* fc-unwinder.c - walks captured stacks with libunwind and DWARF CFI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A remote libunwind address space whose accessors never touch the live
 * target for the stack: registers and stack words come from the snapshot,
 * code and unwind tables (.eh_frame_hdr, .eh_frame) from the module's ELF
 * file, mapped once. Only other memory (rarely needed) is read from the
 * target. Caching is on: libunwind remembers the register rules per IP.
 *
 * Code without unwind tables (JIT code in anonymous memory, Go's binaries,
 * which carry only .debug_frame, trampolines) is stepped over by its frame
 * pointer when the chain is plausible (inside the captured stack, above the
 * current frame, returning into code), as perf does, and the walk goes back
 * to CFI at the next address that has it. V8, HotSpot with
 * -XX:+PreserveFramePointer and Go keep frame pointers.
 */

#include <string.h>

#include <libunwind.h>

#include "fc-unwind-cache.h"
#include "fc-unwinder.h"

#define STACK_GUARD (8 * 1024 * 1024)

extern int UNW_OBJ (dwarf_search_unwind_table) (unw_addr_space_t  as,
                                                unw_word_t        ip,
                                                unw_dyn_info_t   *di,
                                                unw_proc_info_t  *pi,
                                                int               need_unwind_info,
                                                void             *arg);

struct _FcUnwinder {
  FcProcMaps       *maps;
  unw_addr_space_t  as;
  guint             generation;
  FcUnwindCache    *cache;
};

typedef struct {
  FcUnwinder       *self;
  const FcSnapshot *snap;
  FcUnwindReads    *reads;       /* what the walk read, for the cache */
  const FcModule   *cfi_module;  /* whose unwind tables libunwind reads now */
  guint64           regs[FC_SNAPSHOT_N_REGS];  /* of the frame the cursor starts from */
} Context;

static int
find_proc_info_cb (unw_addr_space_t  as,
                   unw_word_t        ip,
                   unw_proc_info_t  *pi,
                   int               need_unwind_info,
                   void             *arg)
{
  Context *ctx = arg;
  const FcModule *m = fc_proc_maps_find_or_reload (ctx->self->maps, ip);
  unw_dyn_info_t di;

  if (m == NULL || m->eh_frame_hdr == 0)
    return -UNW_ENOINFO;
  /* A module mapped in part (node maps some of its text a second time) has its unwind tables
   * at addresses nothing is mapped at: they are read from its file. */
  ctx->cfi_module = m;

  memset (&di, 0, sizeof di);
  di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
  di.start_ip = m->start;
  di.end_ip = m->end;
  di.u.rti.segbase = m->eh_frame_hdr;
  di.u.rti.table_data = m->eh_table;
  /* each table entry is two 32-bit words: initial location, FDE address */
  di.u.rti.table_len = m->eh_fde_count * 8 / sizeof (unw_word_t);
  return UNW_OBJ (dwarf_search_unwind_table) (as, ip, &di, pi, need_unwind_info, arg);
}

static void
put_unwind_info_cb (unw_addr_space_t  as,
                    unw_proc_info_t  *pi,
                    void             *arg)
{
  /* libunwind frees the FDE info it allocated from its own pool */
}

static int
get_dyn_info_list_addr_cb (unw_addr_space_t  as,
                           unw_word_t       *dilap,
                           void             *arg)
{
  return -UNW_ENOINFO;
}

static int
access_mem_cb (unw_addr_space_t  as,
               unw_word_t        addr,
               unw_word_t       *valp,
               int               write,
               void             *arg)
{
  Context *ctx = arg;
  const FcSnapshot *snap = ctx->snap;

  if (write)
    return -UNW_EINVAL;

  if (addr >= snap->stack_addr && addr < snap->stack_addr + snap->stack_len)
    {
      if (addr + sizeof (unw_word_t) <= snap->stack_addr + snap->stack_len)
        {
          memcpy (valp, snap->stack + (addr - snap->stack_addr), sizeof (unw_word_t));
          fc_unwind_reads_note_word (ctx->reads, addr, *valp);
          return 0;
        }
    }
  /* thread stacks sit next to libraries: what is in a module is not stack */
  if (fc_proc_maps_find (ctx->self->maps, addr) == NULL &&
      addr >= snap->stack_addr && addr < snap->stack_addr + STACK_GUARD)
    {
      /* the stack: only what was captured; the live stack has moved on */
      if (addr + sizeof (unw_word_t) > snap->stack_addr + snap->stack_len)
        {
          if (g_getenv ("FC_DEBUG_UNWIND"))
            g_printerr ("stack read at +0x%" G_GINT64_MODIFIER "x beyond %u captured\n",
                        addr - snap->stack_addr, snap->stack_len);
          return -UNW_EINVAL;
        }
      memcpy (valp, snap->stack + (addr - snap->stack_addr), sizeof (unw_word_t));
      fc_unwind_reads_note_word (ctx->reads, addr, *valp);
      return 0;
    }

  if (ctx->cfi_module != NULL && fc_module_read (ctx->cfi_module, addr, valp, sizeof (unw_word_t)))
    return 0;
  if (fc_proc_maps_read (ctx->self->maps, addr, valp, sizeof (unw_word_t)))
    {
      fc_unwind_reads_note_other (ctx->reads, ctx->self->maps, addr, sizeof (unw_word_t));
      return 0;
    }
  if (g_getenv ("FC_DEBUG_UNWIND"))
    g_printerr ("read at 0x%" G_GINT64_MODIFIER "x failed (sp 0x%" G_GINT64_MODIFIER "x)\n", addr, snap->stack_addr);
  return -UNW_EINVAL;
}

static int
access_reg_cb (unw_addr_space_t  as,
               unw_regnum_t      reg,
               unw_word_t       *valp,
               int               write,
               void             *arg)
{
  Context *ctx = arg;

  if (write || reg < 0 || reg >= FC_SNAPSHOT_N_REGS)
    return -UNW_EBADREG;
  *valp = ctx->regs[reg];
  fc_unwind_reads_note_reg (ctx->reads, reg);
  return 0;
}

static int
access_fpreg_cb (unw_addr_space_t  as,
                 unw_regnum_t      reg,
                 unw_fpreg_t      *val,
                 int               write,
                 void             *arg)
{
  return -UNW_EBADREG;
}

static int
resume_cb (unw_addr_space_t  as,
           unw_cursor_t     *cursor,
           void             *arg)
{
  return -UNW_EINVAL;
}

static int
get_proc_name_cb (unw_addr_space_t  as,
                  unw_word_t        addr,
                  char             *buf,
                  size_t            len,
                  unw_word_t       *offp,
                  void             *arg)
{
  return -UNW_ENOINFO;
}

static unw_accessors_t accessors = {
  .find_proc_info = find_proc_info_cb,
  .put_unwind_info = put_unwind_info_cb,
  .get_dyn_info_list_addr = get_dyn_info_list_addr_cb,
  .access_mem = access_mem_cb,
  .access_reg = access_reg_cb,
  .access_fpreg = access_fpreg_cb,
  .resume = resume_cb,
  .get_proc_name = get_proc_name_cb,
};

FcUnwinder *
fc_unwinder_new (FcProcMaps *maps)
{
  FcUnwinder *self = g_new0 (FcUnwinder, 1);

  self->maps = fc_proc_maps_ref (maps);
  self->as = unw_create_addr_space (&accessors, 0);
  /* one thread unwinds: per-thread caching skips the locking (and its sigprocmask calls) of the
   * global cache, ~30% less time per stack here */
  unw_set_caching_policy (self->as, UNW_CACHE_PER_THREAD);
  self->generation = fc_proc_maps_get_generation (maps);
  self->cache = fc_unwind_cache_new ();
  return self;
}

void
fc_unwinder_free (FcUnwinder *self)
{
  if (self == NULL)
    return;
  unw_destroy_addr_space (self->as);
  fc_proc_maps_unref (self->maps);
  fc_unwind_cache_free (self->cache);
  g_free (self);
}

void
fc_unwinder_flush (FcUnwinder *self)
{
  unw_flush_cache (self->as, 0, 0);
  fc_unwind_cache_clear (self->cache);
}

/* Whether DWARF CFI covers @addr: a module with .eh_frame_hdr whose table has an entry for it. */
static gboolean
has_cfi (FcUnwinder *self,
         guint64     addr)
{
  const FcModule *m = fc_proc_maps_find_or_reload (self->maps, addr);
  guint64 start;

  return m != NULL && m->eh_frame_hdr != 0 && fc_module_find_function (m, addr, &start);
}

/* A stack word of the snapshot at @addr, if it was captured. */
static gboolean
stack_word (const FcSnapshot *snap,
            FcUnwindReads    *reads,
            guint64           addr,
            guint64          *value)
{
  if (addr < snap->stack_addr || (addr & 7) != 0 || addr + 8 > snap->stack_addr + snap->stack_len)
    return FALSE;
  memcpy (value, snap->stack + (addr - snap->stack_addr), 8);
  fc_unwind_reads_note_word (reads, addr, *value);
  return TRUE;
}

/* CPython's perf trampolines (3.12+ -X perf: a copy per code object, in anonymous memory, no
 * unwind info, no frame pointer) are `sub $8,%rsp; call *%rcx; add $8,%rsp; ret`: a return
 * address right after those two instructions has its own return address at sp + 8. */
static gboolean
after_python_trampoline_call (FcUnwinder    *self,
                              FcUnwindReads *reads,
                              guint64        ret)
{
  static const guint8 code[] = { 0x48, 0x83, 0xec, 0x08, 0xff, 0xd1 };
  guint8 buf[sizeof code];

  /* code the target may write (a trampoline's copy): the walk is not one to keep */
  fc_unwind_reads_note_other (reads, self->maps, ret - sizeof code, sizeof buf);
  return fc_process_read (fc_proc_maps_get_pid (self->maps), ret - sizeof code, buf, sizeof buf) &&
         memcmp (buf, code, sizeof code) == 0;
}

/* Whether @ret follows a call instruction: `call rel32`, `call *%reg` (with or without REX). */
static gboolean
after_call (FcUnwinder    *self,
            FcUnwindReads *reads,
            guint64        ret)
{
  guint8 b[5];

  if (ret < 5 || !fc_proc_maps_read (self->maps, ret - 5, b, sizeof b))
    return FALSE;
  fc_unwind_reads_note_other (reads, self->maps, ret - 5, sizeof b);
  return b[0] == 0xe8 || (b[3] == 0xff && (b[4] & 0xf8) == 0xd0) ||
         ((b[2] & 0xf0) == 0x40 && b[3] == 0xff && (b[4] & 0xf8) == 0xd0);
}

/* One step from a frame no CFI covers, to its caller: by CPython's trampoline layout, or by the
 * frame pointer when the chain is plausible. FALSE when neither gives a caller in code.
 * A leaf may not have set up its frame (Go's small leaf functions never do; any function is
 * caught before its prologue now and then): when the word at the stack pointer is a return
 * address, just after a call, the leaf's caller is that. */
static gboolean
step_without_cfi (FcUnwinder       *self,
                  const FcSnapshot *snap,
                  FcUnwindReads    *reads,
                  guint64           ip,
                  gboolean          is_leaf,
                  guint64           sp,
                  guint64           rbp,
                  guint64          *new_ip,
                  guint64          *new_sp,
                  guint64          *new_rbp)
{
  guint64 ret = 0, saved = 0;

  if (is_leaf && stack_word (snap, reads, sp, &ret) && ret > 4096 && fc_proc_maps_is_code (self->maps, ret - 1) &&
      after_call (self, reads, ret))
    {
      *new_ip = ret;
      *new_sp = sp + 8;
      *new_rbp = rbp;
      return TRUE;
    }
  if (!is_leaf && after_python_trampoline_call (self, reads, ip) && stack_word (snap, reads, sp + 8, &ret) &&
      fc_proc_maps_is_code_or_reload (self->maps, ret - 1))
    {
      *new_ip = ret;
      *new_sp = sp + 16;
      *new_rbp = rbp;
      return TRUE;
    }
  /* the frame's saved frame pointer and return address sit above it, in the captured stack */
  if (rbp < sp || !stack_word (snap, reads, rbp, &saved) || !stack_word (snap, reads, rbp + 8, &ret) || ret == 0 ||
      !fc_proc_maps_is_code_or_reload (self->maps, ret - 1))
    return FALSE;
  *new_ip = ret;
  *new_sp = rbp + 16;
  *new_rbp = saved;
  return TRUE;
}

static guint unwind (FcUnwinder *self, const FcSnapshot *snapshot, FcUnwindReads *reads,
                     guint64 *ips, guint max_ips, gboolean *complete);

/* A walk whose every read (registers, stack words, code the target could change) gives the
 * same values as an earlier one's is that walk again: fc-unwind-cache.c answers it. */
guint
fc_unwinder_unwind (FcUnwinder       *self,
                    const FcSnapshot *snapshot,
                    guint64          *ips,
                    guint             max_ips,
                    gboolean         *complete)
{
  g_autofree FcUnwindReads *reads = NULL;
  guint generation = fc_proc_maps_get_generation (self->maps);
  guint n;

  *complete = FALSE;
  if (max_ips == 0)
    return 0;
  if ((n = fc_unwind_cache_lookup (self->cache, snapshot, generation, ips, max_ips, complete)) > 0)
    return n;
  reads = g_new (FcUnwindReads, 1);
  reads->regs_read = 0;
  reads->n_words = 0;
  reads->forget = FALSE;
  n = unwind (self, snapshot, reads, ips, max_ips, complete);
  /* the maps read again meanwhile: the walk saw two views of the modules */
  if (generation == fc_proc_maps_get_generation (self->maps))
    fc_unwind_cache_store (self->cache, snapshot, generation, reads, ips, n, max_ips, *complete);
  return n;
}

static guint
unwind (FcUnwinder       *self,
        const FcSnapshot *snapshot,
        FcUnwindReads    *reads,
        guint64          *ips,
        guint             max_ips,
        gboolean         *complete)
{
  Context ctx = { self, snapshot, reads, NULL, { 0 } };
  unw_cursor_t cursor;
  guint n = 0;
  int ret;

  memcpy (ctx.regs, snapshot->regs, sizeof ctx.regs);
  ips[n++] = snapshot->regs[UNW_X86_64_RIP];
  if (unw_init_remote (&cursor, self->as, &ctx) != 0)
    return n;

  while (n < max_ips)
    {
      unw_word_t ip = 0, sp = 0, prev_sp = 0;
      /* a signal handler may run on an alternate stack anywhere in memory */
      gboolean from_signal_frame;
      guint64 here = ips[n - 1];

      unw_get_reg (&cursor, UNW_REG_SP, &prev_sp);
      if (!has_cfi (self, n == 1 ? here : here - 1))
        {
          unw_word_t rbp = 0, keep;
          guint64 new_ip, new_sp, new_rbp;
          static const int callee_saved[] = { UNW_X86_64_RBX, UNW_X86_64_R12, UNW_X86_64_R13,
                                              UNW_X86_64_R14, UNW_X86_64_R15 };

          unw_get_reg (&cursor, UNW_X86_64_RBP, &rbp);
          if (step_without_cfi (self, snapshot, reads, here, n == 1, prev_sp, rbp, &new_ip, &new_sp, &new_rbp))
            {
              /* the caller's frame starts a new walk: what CFI restored so far stands, the rest
               * is the JIT code's (which keeps the callee-saved registers it does not use) */
              for (guint i = 0; i < G_N_ELEMENTS (callee_saved); i++)
                if (unw_get_reg (&cursor, callee_saved[i], &keep) == 0)
                  ctx.regs[callee_saved[i]] = keep;
              ctx.regs[UNW_X86_64_RIP] = new_ip;
              ctx.regs[UNW_X86_64_RSP] = new_sp;
              ctx.regs[UNW_X86_64_RBP] = new_rbp;
              ips[n++] = new_ip;
              if (new_rbp == 0 && !has_cfi (self, new_ip - 1))
                {
                  /* the outermost frame of a frame-pointer chain (Go's runtime.goexit) */
                  *complete = TRUE;
                  break;
                }
              if (unw_init_remote (&cursor, self->as, &ctx) != 0)
                break;
              continue;
            }
          /* no frame chain either: libunwind's own way (the outermost frames glibc and the
           * dynamic loader leave without CFI end with a null frame pointer) */
          if (g_getenv ("FC_DEBUG_UNWIND"))
            {
              const FcModule *m = fc_proc_maps_find (self->maps, here);
              g_printerr ("unwind tid %d: no CFI and no frame chain at ip 0x%" G_GINT64_MODIFIER "x (%s+0x%"
                          G_GINT64_MODIFIER "x, frame %u, rbp 0x%" G_GINT64_MODIFIER "x sp 0x%" G_GINT64_MODIFIER
                          "x)\n", snapshot->tid, here, m ? m->path : "no module", m ? here - m->bias : 0, n,
                          (guint64) rbp, (guint64) prev_sp);
            }
        }

      from_signal_frame = unw_is_signal_frame (&cursor) > 0;
      ret = unw_step (&cursor);
      if (ret == 0)
        {
          *complete = TRUE;
          break;
        }
      if (ret < 0)
        {
          if (g_getenv ("FC_DEBUG_UNWIND"))
            g_printerr ("unwind tid %d: step %u failed (%d) at ip 0x%" G_GINT64_MODIFIER "x\n",
                        snapshot->tid, n, ret, ips[n - 1]);
          break;
        }
      if (unw_get_reg (&cursor, UNW_REG_IP, &ip) != 0 || ip == 0)
        {
          /* glibc's outermost frames end with a zero return address */
          *complete = ip == 0;
          break;
        }
      unw_get_reg (&cursor, UNW_REG_SP, &sp);
      /* A caller's frame is always above its callee's: a CFA that does not
       * grow means broken CFI (or a stack that changed under the copy), and
       * following it repeats the same frame until the frame limit. The
       * stack ends here, incomplete. */
      if (sp <= prev_sp && !from_signal_frame)
        {
          if (g_getenv ("FC_DEBUG_UNWIND"))
            g_printerr ("unwind tid %d: no progress at ip 0x%" G_GINT64_MODIFIER "x (cfa 0x%" G_GINT64_MODIFIER
                        "x <= 0x%" G_GINT64_MODIFIER "x)\n", snapshot->tid, ip, sp, prev_sp);
          break;
        }
      /* a return address outside executable memory is a guess (libunwind's fallback without
       * CFI read a stack word): what lies beyond it is noise, often the same word over and over */
      if (!fc_proc_maps_is_code_or_reload (self->maps, ip - 1))
        break;
      ips[n++] = ip;
    }
  return n;
}
