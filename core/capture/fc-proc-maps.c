/* fc-proc-maps.c - a target's mapped ELF modules, from /proc/PID/maps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-capture-error.h"
#include "fc-proc-maps.h"

struct _FcProcMaps {
  gatomicrefcount ref_count;
  GPid            pid;
  guint           generation;
  char           *exe;
  GPtrArray      *all;       /* FcModule*, owned; never shrinks so pointers stay valid */
  GPtrArray      *active;    /* FcModule*, borrowed, sorted by start */
  guint           maps_hash; /* of the last /proc/PID/maps text read */
  GHashTable     *missed;    /* pages (addr >> 12) that missed every module in that text */
  gint64          missed_since_us;
  GArray         *code;      /* FcCodeRange: every executable mapping (modules, JIT code), by start */
  char           *jitdump;   /* a jit-*.dump file the process maps, or NULL */
};

/* processes whose maps were set up so far, for tests: following children, only those sampled */
static guint n_created;

static const char * const system_dirs[] = {
  "/lib/", "/lib32/", "/lib64/", "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libexec/",
  "/usr/local/lib/", "/snap/", "/app/lib/", "/nix/store/", "/gnu/store/",
};

gboolean
fc_path_is_system_library (const char *path)
{
  if (path == NULL || path[0] == '[')
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (system_dirs); i++)
    if (g_str_has_prefix (path, system_dirs[i]))
      return TRUE;
  return FALSE;
}

static void
fc_module_free (FcModule *m)
{
  if (m->file != NULL)
    fc_module_file_unref (m->file);
  else
    g_free ((gpointer) m->data);
  g_free (m->loads);
  g_free (m->build_id);
  g_free (m->path);
  g_free (m);
}

gboolean
fc_module_read (const FcModule *m,
                guint64         addr,
                void           *buf,
                gsize           len)
{
  guint64 vaddr = addr - m->bias;

  for (guint i = 0; i < m->n_loads; i++)
    {
      const guint64 *l = &m->loads[4 * i];
      if (vaddr >= l[0] && vaddr + len <= l[0] + l[3])
        {
          guint64 off = l[2] + (vaddr - l[0]);
          if (off + len > m->size)
            return FALSE;
          memcpy (buf, m->data + off, len);
          return TRUE;
        }
    }
  return FALSE;
}

/* Reads program headers, build-id and .eh_frame_hdr of an ELF image. */
static gboolean
fc_module_parse (FcModule *m)
{
  Elf *elf;
  GElf_Ehdr ehdr;
  size_t phnum = 0;
  guint64 hdr_vaddr = 0;
  gboolean ok = FALSE;
  guint64 lo = G_MAXUINT64;

  elf_version (EV_CURRENT);
  elf = elf_memory ((char *) m->data, m->size);
  if (elf == NULL)
    return FALSE;
  if (elf_kind (elf) != ELF_K_ELF || gelf_getehdr (elf, &ehdr) == NULL || elf_getphdrnum (elf, &phnum) != 0)
    goto out;

  m->entry = ehdr.e_entry;
  m->loads = g_new0 (guint64, 4 * MAX (phnum, 1));
  for (size_t i = 0; i < phnum; i++)
    {
      GElf_Phdr ph;
      if (gelf_getphdr (elf, i, &ph) == NULL)
        continue;
      if (ph.p_type == PT_LOAD)
        {
          guint64 *l = &m->loads[4 * m->n_loads++];
          l[0] = ph.p_vaddr;
          l[1] = ph.p_memsz;
          l[2] = ph.p_offset;
          l[3] = ph.p_filesz;
          lo = MIN (lo, ph.p_vaddr & ~(guint64) 0xfff);
          if (ph.p_flags & PF_X)
            {
              m->exec_start = ph.p_vaddr;
              m->exec_end = ph.p_vaddr + ph.p_memsz;
            }
        }
      else if (ph.p_type == PT_GNU_EH_FRAME)
        hdr_vaddr = ph.p_vaddr;
      else if (ph.p_type == PT_NOTE && m->build_id == NULL && ph.p_offset + ph.p_filesz <= m->size)
        {
          const guint8 *p = m->data + ph.p_offset;
          const guint8 *end = p + ph.p_filesz;
          while (p + 12 <= end)
            {
              guint32 namesz, descsz, type;
              memcpy (&namesz, p, 4);
              memcpy (&descsz, p + 4, 4);
              memcpy (&type, p + 8, 4);
              const guint8 *name = p + 12;
              const guint8 *desc = name + ((namesz + 3) & ~3u);
              if (desc + descsz > end)
                break;
              if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp (name, "GNU", 4) == 0)
                {
                  GString *hex = g_string_new (NULL);
                  for (guint32 k = 0; k < descsz; k++)
                    g_string_append_printf (hex, "%02x", desc[k]);
                  m->build_id = g_string_free (hex, FALSE);
                  break;
                }
              p = desc + ((descsz + 3) & ~3u);
            }
        }
    }
  m->vmaddr = lo == G_MAXUINT64 ? 0 : lo;
  m->eh_frame_hdr = hdr_vaddr;
  ok = m->n_loads > 0;

out:
  elf_end (elf);
  return ok;
}

/* Resolves the parsed vaddrs to target addresses once the bias is known. */
static void
fc_module_apply_bias (FcModule *m)
{
  guint8 hdr[12];

  m->exec_start += m->bias;
  m->exec_end += m->bias;
  if (m->entry != 0)
    m->entry += m->bias;
  if (m->eh_frame_hdr == 0)
    return;
  m->eh_frame_hdr += m->bias;
  /* version 1, eh_frame_ptr sdata4, fde_count udata4, table datarel|sdata4: what every toolchain writes */
  if (!fc_module_read (m, m->eh_frame_hdr, hdr, sizeof hdr) ||
      hdr[0] != 1 || (hdr[1] & 0x0f) != 0x0b || hdr[2] != 0x03 || hdr[3] != 0x3b)
    {
      m->eh_frame_hdr = 0;
      return;
    }
  guint32 count;
  memcpy (&count, hdr + 8, 4);
  m->eh_fde_count = count;
  m->eh_table = m->eh_frame_hdr + 12;
}

static FcModule *
fc_module_open_file (GPid        pid,
                     const char *path,
                     dev_t       dev,
                     ino_t       ino)
{
  FcModuleFile *file = NULL;
  FcModule *m;
  int fd;

  /* sandboxed, @path is the host's: ours holds the runtime's file, or none */
  if (!fc_access_through_helper (pid))
    file = fc_module_file_open (path);
  else if ((fd = fc_access_open_mapped (pid, path)) >= 0)
    {
      file = fc_module_file_open_fd (fd);
      close (fd);
    }
  if (file == NULL)
    return NULL;
  m = g_new0 (FcModule, 1);
  m->path = g_strdup (path);
  m->file = file;
  m->data = fc_module_file_get_data (file, &m->size);
  m->dev = dev;
  m->ino = ino;
  if (!fc_module_parse (m))
    {
      fc_module_free (m);
      return NULL;
    }
  return m;
}

/**
 * fc_process_read:
 *
 * Reads @len bytes at @addr of process @pid's memory as it is now (process_vm_readv, which
 * needs the rights of ptrace attach, else through flamecast-helper: fc-access.h). A partial
 * read is a failure.
 */
gboolean
fc_process_read (GPid     pid,
                 guint64  addr,
                 void    *buf,
                 gsize    len)
{
  if (len == 0)
    return TRUE;
  /* process_vm_readv; refused (another user's process), flamecast-helper's /proc/PID/mem */
  return fc_access_read_memory (pid, addr, buf, len);
}

static FcModule *
fc_module_open_memory (GPid        pid,
                       const char *name,
                       guint64     start,
                       guint64     end)
{
  gsize len = end - start;
  guint8 *buf;
  FcModule *m;

  if (len == 0 || len > 64 * 1024 * 1024)
    return NULL;
  buf = g_malloc (len);
  if (!fc_process_read (pid, start, buf, len) || memcmp (buf, ELFMAG, SELFMAG) != 0)
    {
      g_free (buf);
      return NULL;
    }
  m = g_new0 (FcModule, 1);
  m->path = g_strdup (name);
  m->data = buf;
  m->size = len;
  if (!fc_module_parse (m))
    {
      fc_module_free (m);
      return NULL;
    }
  /* an in-memory image is laid out by vaddr, not by file offset */
  for (guint i = 0; i < m->n_loads; i++)
    {
      m->loads[4 * i + 2] = m->loads[4 * i] - m->vmaddr;
      m->loads[4 * i + 3] = m->loads[4 * i + 1];
    }
  m->bias = start - m->vmaddr;
  m->start = start;
  m->end = end;
  return m;
}

FcProcMaps *
fc_proc_maps_new (GPid pid)
{
  FcProcMaps *self = g_new0 (FcProcMaps, 1);

  g_atomic_int_inc (&n_created);
  g_atomic_ref_count_init (&self->ref_count);
  self->pid = pid;
  self->all = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_module_free);
  self->active = g_ptr_array_new ();
  self->missed = g_hash_table_new (NULL, NULL);
  self->code = g_array_new (FALSE, FALSE, sizeof (FcCodeRange));
  return self;
}

guint
fc_proc_maps_get_n_created (void)
{
  return g_atomic_int_get (&n_created);
}

FcProcMaps *
fc_proc_maps_ref (FcProcMaps *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
fc_proc_maps_unref (FcProcMaps *self)
{
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_ptr_array_unref (self->active);
  g_ptr_array_unref (self->all);
  g_hash_table_unref (self->missed);
  g_array_unref (self->code);
  g_free (self->jitdump);
  g_free (self->exe);
  g_free (self);
}

guint
fc_proc_maps_get_generation (FcProcMaps *self)
{
  return self->generation;
}

/* After an exec the old modules are gone; their structs stay allocated (callers may hold pointers). */
void
fc_proc_maps_forget (FcProcMaps *self)
{
  g_ptr_array_set_size (self->active, 0);
  g_clear_pointer (&self->exe, g_free);
  g_hash_table_remove_all (self->missed);
  self->maps_hash = 0;
  self->generation++;
}

static int
compare_start (gconstpointer a,
               gconstpointer b)
{
  const FcModule *ma = *(FcModule * const *) a;
  const FcModule *mb = *(FcModule * const *) b;
  return ma->start < mb->start ? -1 : ma->start > mb->start;
}

/* Consecutive mappings of one file at one load address: the mappings of one module. */
typedef struct {
  char    *path;
  guint64  start, end;
  guint64  first_start, first_offset;
  guint64  last_offset;
  dev_t    dev;
  ino_t    ino;
} MapGroup;

static void
map_group_free (MapGroup *g)
{
  g_free (g->path);
  g_free (g);
}

static int
compare_code_range (gconstpointer a,
                    gconstpointer b)
{
  const FcCodeRange *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Sandboxed, /proc/PID/exe is the host's link, not ours to read: the program the helper opens
 * through it is the mapped file with its inode. */
static char *
exe_among (GPid       pid,
           GPtrArray *groups)
{
  struct stat st;
  int fd = fc_access_open_proc (pid, 0, "exe");
  gboolean ok;

  if (fd < 0)
    return NULL;
  ok = fstat (fd, &st) == 0;
  close (fd);
  for (guint i = 0; ok && i < groups->len; i++)
    {
      MapGroup *g = g_ptr_array_index (groups, i);
      if (g->ino == st.st_ino && g->path[0] == '/')
        return g_strdup (g->path);
    }
  return NULL;
}

gboolean
fc_proc_maps_reload (FcProcMaps *self,
                     GError    **error)
{
  g_autofree char *exe_link = g_strdup_printf ("/proc/%d/exe", self->pid);
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) order = NULL;
  g_auto(GStrv) lines = NULL;
  MapGroup *open = NULL;

  if ((contents = fc_access_read_maps (self->pid, error)) == NULL)
    return FALSE;
  /* nothing mapped or unmapped since the last read: the modules stand */
  if (self->active->len > 0 && g_str_hash (contents) == self->maps_hash)
    return TRUE;
  self->maps_hash = g_str_hash (contents);
  g_hash_table_remove_all (self->missed);
  self->missed_since_us = g_get_monotonic_time ();
  if (self->exe == NULL && !fc_access_through_helper (self->pid))
    self->exe = g_file_read_link (exe_link, NULL);

  order = g_ptr_array_new_with_free_func ((GDestroyNotify) map_group_free);
  g_array_set_size (self->code, 0);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long start, end, offset, inode;
      unsigned int major, minor;
      char perms[8];
      int path_at = 0;
      const char *path;
      MapGroup *g = open;

      if (sscanf (lines[i], "%llx-%llx %7s %llx %x:%x %llu %n",
                  &start, &end, perms, &offset, &major, &minor, &inode, &path_at) < 7)
        continue;
      path = path_at > 0 ? lines[i] + path_at : "";
      if (path[0] != '/' && strcmp (path, "[vdso]") != 0)
        {
          /* anonymous executable memory: what JIT compilers write their code into */
          if (perms[2] == 'x' && strcmp (path, "[vsyscall]") != 0)
            {
              FcCodeRange r = { start, end };
              g_array_append_val (self->code, r);
            }
          continue;
        }
      if (g_str_has_suffix (path, " (deleted)"))
        continue;
      /* a JIT runtime maps its jitdump file so that perf finds it (--perf-prof, -X perf_jit) */
      if (g_str_has_suffix (path, ".dump") && strstr (path, "/jit-") != NULL && g_strcmp0 (self->jitdump, path) != 0)
        {
          g_free (self->jitdump);
          self->jitdump = g_strdup (path);
        }
      /* A module is a run of mappings of one file with growing offsets. The same file mapped
       * again elsewhere (node maps part of its own text a second time near 0x7f...) is another
       * module with its own load bias: one span from the first to the last mapping of a path
       * would swallow everything mapped in between. */
      if (g == NULL || strcmp (g->path, path) != 0 || g->ino != inode || offset < g->last_offset)
        {
          g = g_new0 (MapGroup, 1);
          g->path = g_strdup (path);
          g->start = start;
          g->end = end;
          g->first_start = start;
          g->first_offset = offset;
          g->dev = makedev (major, minor);
          g->ino = inode;
          g_ptr_array_add (order, g);
          open = g;
        }
      g->end = MAX (g->end, end);
      g->last_offset = offset;
      if (perms[2] == 'x')
        {
          FcCodeRange r = { start, end };
          g_array_append_val (self->code, r);
        }
    }

  if (self->exe == NULL && fc_access_through_helper (self->pid))
    self->exe = exe_among (self->pid, order);
  g_ptr_array_set_size (self->active, 0);
  for (guint i = 0; i < order->len; i++)
    {
      MapGroup *g = g_ptr_array_index (order, i);
      FcModule *m = NULL;

      for (guint k = 0; k < self->all->len; k++)
        {
          FcModule *old = g_ptr_array_index (self->all, k);
          if (old->start == g->start && old->end == g->end && old->ino == g->ino && strcmp (old->path, g->path) == 0)
            {
              m = old;
              break;
            }
        }

      if (m == NULL)
        {
          if (g->path[0] == '[')
            m = fc_module_open_memory (self->pid, g->path, g->start, g->end);
          else
            {
              m = fc_module_open_file (self->pid, g->path, g->dev, g->ino);
              if (m != NULL)
                {
                  /* the segment holding the first mapped page tells the load bias */
                  m->bias = g->first_start - g->first_offset - m->vmaddr;
                  for (guint k = 0; k < m->n_loads; k++)
                    {
                      const guint64 *l = &m->loads[4 * k];
                      guint64 off_page = l[2] & ~(guint64) 0xfff;
                      if (g->first_offset >= off_page && g->first_offset < l[2] + l[3])
                        {
                          m->bias = g->first_start - (l[0] & ~(guint64) 0xfff) - (g->first_offset - off_page);
                          break;
                        }
                    }
                  m->start = g->start;
                  m->end = g->end;
                  m->partial = g->first_offset != 0;
                }
            }
          if (m == NULL)
            continue;
          fc_module_apply_bias (m);
          m->is_main = self->exe != NULL && strcmp (self->exe, m->path) == 0;
          m->in_app = m->is_main || !fc_path_is_system_library (m->path);
          g_ptr_array_add (self->all, m);
        }
      g_ptr_array_add (self->active, m);
    }
  g_ptr_array_sort (self->active, compare_start);
  g_array_sort (self->code, compare_code_range);
  self->generation++;
  return TRUE;
}

const FcModule *
fc_proc_maps_find (FcProcMaps *self,
                   guint64     addr)
{
  guint lo = 0, hi = self->active->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const FcModule *m = g_ptr_array_index (self->active, mid);
      if (addr < m->start)
        hi = mid;
      else if (addr >= m->end)
        lo = mid + 1;
      else
        return m;
    }
  return NULL;
}

/* Whether @page may have the maps read again for it: not when it missed with the maps as they
 * are, within the last second (JIT code, garbage on the stack). */
static gboolean
may_reload_for (FcProcMaps *self,
                gpointer    page)
{
  gint64 now = g_get_monotonic_time ();

  if (now - self->missed_since_us >= G_USEC_PER_SEC || g_hash_table_size (self->missed) > 65536)
    {
      g_hash_table_remove_all (self->missed);
      self->missed_since_us = now;
    }
  return !g_hash_table_contains (self->missed, page);
}

/* An address outside every known module may be in a library mapped since the
 * last read (the dynamic loader maps libc after exec, dlopen() later): re-read
 * the maps at every miss, so no stack is lost to a stale view. A page that
 * missed with the maps unchanged (JIT code, garbage on the stack) is not
 * looked up again until the maps change, or for a second. */
const FcModule *
fc_proc_maps_find_or_reload (FcProcMaps *self,
                             guint64     addr)
{
  const FcModule *m = fc_proc_maps_find (self, addr);
  gpointer page = GSIZE_TO_POINTER ((gsize) (addr >> 12));

  if (m != NULL || addr < 4096)
    return m;
  if (!may_reload_for (self, page) || !fc_proc_maps_reload (self, NULL))
    return NULL;
  m = fc_proc_maps_find (self, addr);
  if (m == NULL)
    g_hash_table_add (self->missed, page);
  return m;
}

gboolean
fc_proc_maps_read (FcProcMaps *self,
                   guint64     addr,
                   void       *buf,
                   gsize       len)
{
  const FcModule *m = fc_proc_maps_find (self, addr);

  if (m != NULL && fc_module_read (m, addr, buf, len))
    return TRUE;
  /* writable data (e.g. a relocated GOT) is not in the file: ask the target */
  return fc_process_read (self->pid, addr, buf, len);
}

GPid
fc_proc_maps_get_pid (FcProcMaps *self)
{
  return self->pid;
}

/* The jitdump file the process has mapped, or NULL. */
const char *
fc_proc_maps_get_jitdump (FcProcMaps *self)
{
  return self->jitdump;
}

/* The modules mapped as of the last read, by address; valid until the next reload. */
const FcModule * const *
fc_proc_maps_get_modules (FcProcMaps *self,
                          guint      *n_modules)
{
  *n_modules = self->active->len;
  return (const FcModule * const *) self->active->pdata;
}

/**
 * fc_proc_maps_is_code:
 *
 * Whether @addr is in executable memory as of the last read of the maps: a module's code, or
 * anonymous executable memory (a JIT compiler's code). A return address anywhere else is
 * not one.
 */
gboolean
fc_proc_maps_is_code (FcProcMaps *self,
                      guint64     addr)
{
  const FcCodeRange *r = (const FcCodeRange *) (gpointer) self->code->data;
  guint lo = 0, hi = self->code->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (addr < r[mid].start)
        hi = mid;
      else if (addr >= r[mid].end)
        lo = mid + 1;
      else
        return TRUE;
    }
  return FALSE;
}

/* Like fc_proc_maps_is_code, reading the maps again when @addr is in no range known (JIT code
 * is mapped while the program runs), or in a module's code that was not executable when they
 * were read: the dynamic loader maps a library's whole extent read-only first, then its
 * segments over it, and maps read in between show the library without its code. The read
 * happens at most once a second for a page that missed (fc_proc_maps_find_or_reload). */
gboolean
fc_proc_maps_is_code_or_reload (FcProcMaps *self,
                                guint64     addr)
{
  const FcModule *m;
  gpointer page = GSIZE_TO_POINTER ((gsize) (addr >> 12));

  if (fc_proc_maps_is_code (self, addr))
    return TRUE;
  m = fc_proc_maps_find (self, addr);
  if (m == NULL)
    fc_proc_maps_find_or_reload (self, addr);
  else if (addr >= m->exec_start && addr < m->exec_end && may_reload_for (self, page) &&
           fc_proc_maps_reload (self, NULL) && !fc_proc_maps_is_code (self, addr))
    g_hash_table_add (self->missed, page);
  return fc_proc_maps_is_code (self, addr);
}

/**
 * fc_module_find_symbol:
 * @addr: (out): the symbol's target address
 * @size: (out) (optional): its size
 *
 * Looks @name up in the module's dynamic symbol table, then in its symbol table: where a
 * runtime keeps its state (CPython's _PyRuntime is exported, even from a stripped python3).
 */
gboolean
fc_module_find_symbol (const FcModule *m,
                       const char     *name,
                       guint64        *addr,
                       guint64        *size)
{
  Elf *elf;
  Elf_Scn *scn = NULL;
  gboolean found = FALSE;

  if (m->data == NULL)
    return FALSE;
  elf_version (EV_CURRENT);
  elf = elf_memory ((char *) m->data, m->size);
  if (elf == NULL)
    return FALSE;
  for (int pass = 0; pass < 2 && !found; pass++)
    while (!found && (scn = elf_nextscn (elf, scn)) != NULL)
      {
        GElf_Shdr sh;
        Elf_Data *data;

        if (gelf_getshdr (scn, &sh) == NULL || sh.sh_type != (pass == 0 ? SHT_DYNSYM : SHT_SYMTAB) ||
            sh.sh_entsize == 0 || (data = elf_getdata (scn, NULL)) == NULL)
          continue;
        for (gsize i = 0; i < sh.sh_size / sh.sh_entsize; i++)
          {
            GElf_Sym sym;
            const char *sname;

            if (gelf_getsym (data, (int) i, &sym) == NULL || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
              continue;
            sname = elf_strptr (elf, sh.sh_link, sym.st_name);
            if (sname != NULL && strcmp (sname, name) == 0)
              {
                *addr = sym.st_value + m->bias;
                if (size != NULL)
                  *size = sym.st_size;
                found = TRUE;
                break;
              }
          }
      }
  elf_end (elf);
  return found;
}

/**
 * fc_module_find_function:
 * @start: (out): target address where the function holding @addr begins
 *
 * Finds the function holding @addr from the module's .eh_frame_hdr search
 * table (every function with unwind info has an entry), so that addresses
 * without a symbol can still be grouped per function, as perf does.
 *
 * Returns: FALSE when no unwind entry covers @addr
 */
gboolean
fc_module_find_function (const FcModule *m,
                         guint64         addr,
                         guint64        *start)
{
  gint64 lo = 0, hi = (gint64) m->eh_fde_count - 1, found = -1;
  gint32 entry[2], fde[4];
  guint64 begin;

  if (m->eh_frame_hdr == 0 || m->eh_fde_count == 0)
    return FALSE;
  while (lo <= hi)
    {
      gint64 mid = (lo + hi) / 2;
      if (!fc_module_read (m, m->eh_table + mid * 8, entry, sizeof entry))
        return FALSE;
      if (m->eh_frame_hdr + (gint64) entry[0] <= addr)
        {
          found = mid;
          lo = mid + 1;
        }
      else
        hi = mid - 1;
    }
  if (found < 0 || !fc_module_read (m, m->eh_table + found * 8, entry, sizeof entry))
    return FALSE;
  begin = m->eh_frame_hdr + (gint64) entry[0];
  /* the FDE: length, CIE pointer, then pc_begin and pc_range as pcrel sdata4 (what GCC and
   * clang write); when it is laid out so, addresses past the function's end are not in it */
  if (fc_module_read (m, m->eh_frame_hdr + (gint64) entry[1], fde, sizeof fde) &&
      m->eh_frame_hdr + (gint64) entry[1] + 8 + (gint64) fde[2] == begin &&
      addr >= begin + (guint32) fde[3])
    return FALSE;
  *start = begin;
  return TRUE;
}
