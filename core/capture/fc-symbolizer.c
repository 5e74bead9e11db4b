/* fc-symbolizer.c - addresses to function, file and line with elfutils
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Modules are reported to libdwfl from our own view of /proc/PID/maps (not
 * dwfl_linux_proc_report) so symbolizing keeps working after the target
 * has exited: each file in a Dwfl of its own, at its ELF addresses, which
 * every process that maps the file shares. Debug info is found the standard way (.gnu_debuglink,
 * /usr/lib/debug/.build-id); without it the symbol table names the
 * function, and without that "module+0xoffset" does.
 */

#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "fc-access.h"
#include "fc-debuginfod.h"
#include "fc-demangle.h"
#include "fc-dwfl-callbacks.h"
#include "fc-jitdump.h"
#include "fc-perf-map.h"
#include "fc-symbolizer.h"

/* a JIT's map is read again at most this often while addresses in JIT code go unnamed */
#define JIT_READ_INTERVAL_US (200 * 1000)
#define JIT_CODE_UNNAMED "[JIT code]"

/* A module's function symbols sorted by address, built once: dwfl_module_addrinfo scans the
 * whole symbol table at every call, which on a large program (cc1: 100k symbols) cost most of
 * the profiler's CPU. */
typedef struct {
  guint64     start;        /* ELF address (target address - load bias) */
  guint64     size;         /* a sizeless symbol reaches the end of its section */
  gboolean    sizeless;
  const char *name;         /* in the table's names */
  int         binding;      /* preference at equal start: global 2, weak 1, local 0 */
} SymEntry;

/* What a file's symbols and debug info tell, at its ELF addresses (target address - load
 * bias): one for every process that maps the file, hung on its FcModuleFile. Following
 * children, a build runs cc1 a thousand times: its symbol table is sorted and its compressed
 * DWARF inflated once, not once a process. Made again when debuginfod brought debug info. */
typedef struct {
  gatomicrefcount ref_count;
  GMutex       lock;        /* libdw is not thread-safe: one lookup in this file at a time */
  Dwfl        *dwfl;        /* this file alone, reported at its ELF addresses */
  Dwfl_Module *mod;         /* NULL when the module could not be reported */
  guint        debuginfod_gen;
  GArray      *symbols;     /* SymEntry by start; NULL until the first lookup */
  GStringChunk *names;
  guint64      plt_start[2]; /* .plt and .plt.sec, module addresses; 0 when absent */
  guint64      plt_end[2];
  gboolean     plt_read;
  GArray      *cu_ranges;   /* CuRange by start, for DWARF without .debug_aranges; NULL until needed */
} ModuleInfo;

/* what a compilation unit's code covers (its DW_AT_ranges or low/high pc), module addresses */
typedef struct {
  guint64   start;
  guint64   end;
  Dwarf_Off cu;
} CuRange;

struct _FcSymbolizer {
  FcProcMaps *maps;
  GHashTable *reported;   /* FcModule* -> ModuleInfo*, a reference */
  GHashTable *cache;      /* lookup address -> FcSymbol* */
  GHashTable *unknown_cache; /* lookup address -> FcSymbol* of addresses in no module (yet) */
  GHashTable *unknown_gen;   /* lookup address -> unknown_tag () when it was looked up */
  GPtrArray  *retired;       /* FcSymbol* replaced in unknown_cache: items may still point to them */
  GHashTable *named_late;    /* FcSymbol* -> FcSymbol*: JIT code named since the last rename_jit() */
  /* JIT code: named by the runtime's perf map or jitdump */
  FcJitTable *jit;
  FcPerfMap  *perf_map;
  FcJitdump  *jitdump;
  gboolean    perf_map_found;
  char       *jitdump_error;
  gint64      jit_read_us;
  guint64     n_jit_named;   /* addresses in JIT code looked up, named or not */
  guint64     n_jit_unnamed;
  GPtrArray  *retired_caches; /* caches of symbols looked up before debug info arrived: frames
                               * and samples on their way still point at them */
  guint       debuginfod_gen; /* fc_debuginfod_get_generation() when the Dwfl was made */
  gint64      debuginfod_deadline; /* until when lookups wait for debuginfod; 0 before the first */
};

/* symbol tables read from a file, for tests: shared ones are read once */
static guint n_symbol_tables_read;

static GQuark
module_info_quark (void)
{
  return g_quark_from_static_string ("fc-symbolizer-module-info");
}

static gpointer
module_info_ref (gconstpointer data,
                 gpointer      unused)
{
  ModuleInfo *info = (ModuleInfo *) data;

  g_atomic_ref_count_inc (&info->ref_count);
  return info;
}

static void
module_info_unref (gpointer data)
{
  ModuleInfo *info = data;

  if (!g_atomic_ref_count_dec (&info->ref_count))
    return;
  if (info->symbols != NULL)
    g_array_unref (info->symbols);
  if (info->names != NULL)
    g_string_chunk_free (info->names);
  if (info->cu_ranges != NULL)
    g_array_unref (info->cu_ranges);
  dwfl_end (info->dwfl);
  g_mutex_clear (&info->lock);
  g_free (info);
}

static int
compare_sym_entry (gconstpointer a,
                   gconstpointer b)
{
  const SymEntry *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* at one address the preferred name comes last, where the search lands */
  if (x->sizeless != y->sizeless)
    return x->sizeless ? -1 : 1;
  return x->binding - y->binding;
}

/* Under info->lock */
static void
read_symbols (ModuleInfo *info)
{
  int n;

  info->symbols = g_array_new (FALSE, FALSE, sizeof (SymEntry));
  info->names = g_string_chunk_new (4096);
  g_atomic_int_inc (&n_symbol_tables_read);
  n = info->mod != NULL ? dwfl_module_getsymtab (info->mod) : -1;
  for (int i = 1; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr = 0;
      GElf_Word shndx = 0;
      Elf *elf = NULL;
      const char *name = dwfl_module_getsym_info (info->mod, i, &sym, &addr, &shndx, &elf, NULL);
      int type = GELF_ST_TYPE (sym.st_info), bind = GELF_ST_BIND (sym.st_info);
      SymEntry e;

      if (name == NULL || name[0] == 0 || addr == 0 || shndx == SHN_UNDEF ||
          (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE))
        continue;
      e.start = addr;
      e.size = sym.st_size;
      e.sizeless = sym.st_size == 0;
      if (e.sizeless)
        {
          /* hand-written assembly: it reaches the next symbol, within its section (a PLT stub
           * after .init is not _init) */
          Elf_Scn *scn = elf != NULL ? elf_getscn (elf, shndx) : NULL;
          GElf_Shdr sh;

          if (scn != NULL && gelf_getshdr (scn, &sh) != NULL && sh.sh_addr + sh.sh_size > sym.st_value)
            e.size = sh.sh_addr + sh.sh_size - sym.st_value;
          else
            e.size = 1;
        }
      e.name = g_string_chunk_insert (info->names, name);
      e.binding = bind == STB_GLOBAL ? 2 : bind == STB_WEAK ? 1 : 0;
      g_array_append_val (info->symbols, e);
    }
  g_array_sort (info->symbols, compare_sym_entry);
}

/* The function symbol holding @addr: the nearest one starting at or below it that covers it
 * (its size), or a sizeless one right below it, as dwfl_module_addrinfo chooses. */
static const char *
find_symbol (ModuleInfo *info,
             guint64     addr)
{
  const SymEntry *e;
  gint64 lo = 0, hi, found = -1;

  if (info->symbols == NULL)
    read_symbols (info);
  e = (const SymEntry *) (gpointer) info->symbols->data;
  hi = (gint64) info->symbols->len - 1;
  while (lo <= hi)
    {
      gint64 mid = (lo + hi) / 2;
      if (e[mid].start <= addr)
        {
          found = mid;
          lo = mid + 1;
        }
      else
        hi = mid - 1;
    }
  if (found < 0)
    return NULL;
  /* the nearest start; a symbol further down may still cover it (a function with a local label
   * inside), a few suffice */
  if (addr < e[found].start + e[found].size)
    return e[found].name;
  for (gint64 i = found - 1; i >= 0 && i > found - 8; i--)
    if (!e[i].sizeless && addr < e[i].start + e[i].size)
      return e[i].name;
  return NULL;
}

void
fc_symbol_free (FcSymbol *sym)
{
  while (sym != NULL)
    {
      FcSymbol *caller = sym->caller;
      g_free (sym->module_name);
      g_free (sym->function);
      g_free (sym->abs_path);
      g_free (sym->filename);
      g_free (sym);
      sym = caller;
    }
}

static char *
die_function_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name = NULL;

  /* an inlined_subroutine names its function through DW_AT_abstract_origin */
  if (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr) != NULL ||
      dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr) != NULL ||
      dwarf_attr_integrate (die, DW_AT_name, &attr) != NULL)
    name = dwarf_formstring (&attr);
  return name != NULL ? fc_demangle (name) : NULL;
}

/* "./string/strcoll_l.c" is relative to the compilation directory */
static char *
source_path (const char *path,
             const char *comp_dir)
{
  if (path == NULL)
    return NULL;
  if (g_path_is_absolute (path) || comp_dir == NULL || !g_path_is_absolute (comp_dir))
    return g_strdup (path);
  return g_canonicalize_filename (path, comp_dir);
}

static void
set_call_site (FcSymbol  *sym,
               Dwarf_Die *inlined,
               Dwarf_Die *cudie)
{
  Dwarf_Attribute attr;
  Dwarf_Word file_idx = 0, line = 0;
  Dwarf_Files *files = NULL;
  size_t n_files = 0;
  const char *path;

  if (dwarf_attr (inlined, DW_AT_call_line, &attr) != NULL && dwarf_formudata (&attr, &line) == 0 && line > 0)
    sym->lineno = (int) line;
  if (dwarf_attr (inlined, DW_AT_call_file, &attr) != NULL && dwarf_formudata (&attr, &file_idx) == 0 &&
      dwarf_getsrcfiles (cudie, &files, &n_files) == 0 && file_idx < n_files &&
      (path = dwarf_filesrc (files, file_idx, NULL, NULL)) != NULL)
    {
      Dwarf_Attribute comp_dir;

      sym->abs_path = source_path (path, dwarf_formstring (dwarf_attr (cudie, DW_AT_comp_dir, &comp_dir)));
      sym->filename = g_path_get_basename (path);
    }
}

/* Appends to @chain (outermost first) the DW_TAG_inlined_subroutine DIEs under @parent whose
 * code holds @pc. dwarf_getscopes() does not do for LTO builds (Debian's python3.11): there an
 * inlined instance's abstract origin is in another compilation unit, which it looks for in the
 * concrete one only, and it returns no scopes at all. Containers without code (namespaces,
 * classes) are searched too, for C++ methods. */
static void
find_inlined (Dwarf_Die  *parent,
              Dwarf_Addr  pc,
              GArray     *chain,
              guint       depth)
{
  Dwarf_Die child;

  if (depth > 64 || dwarf_child (parent, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);

      switch (tag)
        {
        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
        case DW_TAG_module:
          if (dwarf_haschildren (&child) > 0)
            {
              guint before = chain->len;
              find_inlined (&child, pc, chain, depth + 1);
              if (chain->len > before)
                return;
            }
          break;
        case DW_TAG_subprogram:
        case DW_TAG_inlined_subroutine:
        case DW_TAG_lexical_block:
          if (dwarf_haspc (&child, pc) > 0)
            {
              if (tag == DW_TAG_inlined_subroutine)
                g_array_append_val (chain, child);
              find_inlined (&child, pc, chain, depth + 1);
              return;
            }
          break;
        default:
          break;
        }
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

/* Turns sym (the real function at addr, with the line table's file and line) into the chain of
 * functions inlined at addr: the innermost takes the line table's position, each outer one the
 * call site of the function inlined into it. */
static FcSymbol *
expand_inlines (FcSymbol    *sym,
                Dwfl_Module *mod,
                guint64      addr)
{
  Dwarf_Addr bias = 0;
  Dwarf_Die *cudie = dwfl_module_addrdie (mod, addr, &bias);
  g_autoptr(GArray) found = NULL;
  GPtrArray *chain;
  FcSymbol *inner;

  if (cudie == NULL)
    return sym;
  found = g_array_new (FALSE, FALSE, sizeof (Dwarf_Die));
  find_inlined (cudie, addr - bias, found, 0);

  /* innermost first */
  chain = g_ptr_array_new ();
  for (guint i = found->len; i-- > 0;)
    g_ptr_array_add (chain, &g_array_index (found, Dwarf_Die, i));

  inner = sym;
  if (chain->len > 0)
    {
      /* innermost first: a frame per inlined function, then the real one */
      FcSymbol *head = NULL, *tail = NULL;

      for (guint i = 0; i < chain->len; i++)
        {
          Dwarf_Die *die = g_ptr_array_index (chain, i);
          FcSymbol *frame = g_new0 (FcSymbol, 1);

          frame->module = sym->module;
          frame->in_app = sym->in_app;
          frame->lineno = -1;
          frame->function = die_function_name (die);
          if (frame->function == NULL)
            frame->function = g_strdup ("<inlined>");
          if (i == 0)
            {
              frame->abs_path = g_strdup (sym->abs_path);
              frame->filename = g_strdup (sym->filename);
              frame->lineno = sym->lineno;
            }
          else
            set_call_site (frame, g_ptr_array_index (chain, i - 1), cudie);
          if (tail != NULL)
            tail->caller = frame;
          else
            head = frame;
          tail = frame;
        }
      /* the real function, at the call site of the outermost inlined one */
      g_clear_pointer (&sym->abs_path, g_free);
      g_clear_pointer (&sym->filename, g_free);
      sym->lineno = -1;
      set_call_site (sym, g_ptr_array_index (chain, chain->len - 1), cudie);
      tail->caller = sym;
      inner = head;
    }

  g_ptr_array_unref (chain);
  return inner;
}

FcSymbolizer *
fc_symbolizer_new (FcProcMaps *maps)
{
  FcSymbolizer *self = g_new0 (FcSymbolizer, 1);

  self->maps = fc_proc_maps_ref (maps);
  self->reported = g_hash_table_new_full (NULL, NULL, NULL, module_info_unref);
  self->cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) fc_symbol_free);
  self->unknown_cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) fc_symbol_free);
  self->unknown_gen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->retired = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_symbol_free);
  self->named_late = g_hash_table_new (NULL, NULL);
  self->jit = fc_jit_table_new ();
  self->perf_map = fc_perf_map_new (fc_proc_maps_get_pid (maps));
  self->jit_read_us = G_MININT64 / 2;
  self->retired_caches = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  self->debuginfod_gen = fc_debuginfod_get_generation ();
  return self;
}

/* Debug info arrived from debuginfod since the Dwfl was made: a new one finds it, and addresses
 * are looked up again (libdwfl keeps a module's first answer). */
static void
refresh_for_debuginfod (FcSymbolizer *self)
{
  guint gen = fc_debuginfod_get_generation ();

  if (gen == self->debuginfod_gen)
    return;
  self->debuginfod_gen = gen;
  g_ptr_array_add (self->retired_caches, self->cache);
  self->cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) fc_symbol_free);
  g_hash_table_remove_all (self->reported);
}

/**
 * fc_symbolizer_forget:
 *
 * The process ran exec(): an address named so far may be another module's now, and is looked up
 * again. The symbols handed out stay alive: samples on their way point at them.
 */
void
fc_symbolizer_forget (FcSymbolizer *self)
{
  g_ptr_array_add (self->retired_caches, self->cache);
  self->cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) fc_symbol_free);
  g_ptr_array_add (self->retired_caches, self->unknown_cache);
  self->unknown_cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) fc_symbol_free);
  g_hash_table_remove_all (self->unknown_gen);
}

void
fc_symbolizer_free (FcSymbolizer *self)
{
  if (self == NULL)
    return;
  fc_dwfl_forget_deadline (&self->debuginfod_deadline);
  g_hash_table_unref (self->cache);
  g_ptr_array_unref (self->retired_caches);
  g_hash_table_unref (self->unknown_gen);
  g_hash_table_unref (self->unknown_cache);
  g_ptr_array_unref (self->retired);
  g_hash_table_unref (self->named_late);
  fc_perf_map_free (self->perf_map);
  fc_jitdump_free (self->jitdump);
  fc_jit_table_free (self->jit);
  g_free (self->jitdump_error);
  g_hash_table_unref (self->reported);
  fc_proc_maps_unref (self->maps);
  g_free (self);
}

/* The file's debug info at its ELF addresses, made for the first process that maps it (or
 * again, when debuginfod brought more since) and shared by the others */
static ModuleInfo *
ensure_reported (FcSymbolizer   *self,
                 const FcModule *m)
{
  ModuleInfo *info = g_hash_table_lookup (self->reported, m);
  guint gen = fc_debuginfod_get_generation ();

  if (info != NULL)
    return info;
  if (m->file != NULL)
    info = fc_module_file_dup_shared (m->file, module_info_quark (), module_info_ref);
  if (info != NULL && info->debuginfod_gen != gen)
    g_clear_pointer (&info, module_info_unref);
  if (info == NULL)
    {
      info = g_new0 (ModuleInfo, 1);
      g_atomic_ref_count_init (&info->ref_count);
      g_mutex_init (&info->lock);
      info->debuginfod_gen = gen;
      info->dwfl = dwfl_begin (fc_dwfl_callbacks_for_modules ());
      if (m->path[0] == '/')
        {
          g_autofree char *name = g_path_get_basename (m->path);
          GPid pid = fc_proc_maps_get_pid (self->maps);
          /* sandboxed, the path is the host's: the helper opens the file the target maps */
          int fd = fc_access_through_helper (pid) ? fc_access_open_mapped (pid, m->path) : -1;

          dwfl_report_begin (info->dwfl);
          /* at bias 0, its addresses are the file's: the same in every process; libdwfl keeps
           * the fd it was given when it reports the module */
          if (fd >= 0 || !fc_access_through_helper (pid))
            info->mod = dwfl_report_elf (info->dwfl, name, m->path, fd, 0, true);
          if (info->mod == NULL && fd >= 0)
            close (fd);
          dwfl_report_end (info->dwfl, NULL, NULL);
        }
      if (m->file != NULL)
        fc_module_file_set_shared (m->file, module_info_quark (), module_info_ref (info, NULL), module_info_unref);
    }
  g_hash_table_insert (self->reported, (gpointer) m, info);
  return info;
}

static int
compare_cu_range (gconstpointer a,
                  gconstpointer b)
{
  const CuRange *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The line at @addr when libdw's own lookup found no compilation unit: Go writes no
 * .debug_aranges, which elfutils 0.188 needs to find a unit by address. The units' ranges
 * are read once and searched here. */
static Dwarf_Line *
line_without_aranges (ModuleInfo *info,
                      guint64     addr,
                      Dwarf_Die  *cudie)
{
  Dwarf_Addr bias = 0;
  Dwarf *dwarf = dwfl_module_getdwarf (info->mod, &bias);
  const CuRange *r;
  guint lo = 0, hi;

  if (dwarf == NULL)
    return NULL;
  if (info->cu_ranges == NULL)
    {
      Dwarf_Off off = 0, next;
      size_t header_size;

      info->cu_ranges = g_array_new (FALSE, FALSE, sizeof (CuRange));
      while (dwarf_nextcu (dwarf, off, &next, &header_size, NULL, NULL, NULL) == 0)
        {
          Dwarf_Die die;
          Dwarf_Addr base, start, end;
          ptrdiff_t it = 0;

          if (dwarf_offdie (dwarf, off + header_size, &die) != NULL)
            while ((it = dwarf_ranges (&die, it, &base, &start, &end)) > 0)
              {
                CuRange cr = { start + bias, end + bias, off + header_size };
                g_array_append_val (info->cu_ranges, cr);
              }
          off = next;
        }
      g_array_sort (info->cu_ranges, compare_cu_range);
    }
  r = (const CuRange *) (gpointer) info->cu_ranges->data;
  hi = info->cu_ranges->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (addr < r[mid].start)
        hi = mid;
      else if (addr >= r[mid].end)
        lo = mid + 1;
      else
        {
          if (dwarf_offdie (dwarf, r[mid].cu, cudie) == NULL)
            return NULL;
          return dwarf_getsrc_die (cudie, addr - bias);
        }
    }
  return NULL;
}

/* Whether @vaddr (a module address) is in .plt or .plt.sec; the sections are read once. */
static gboolean
in_plt (ModuleInfo     *info,
        const FcModule *m,
        guint64         vaddr)
{
  if (!info->plt_read && m->data != NULL)
    {
      Elf *elf;
      Elf_Scn *scn = NULL;
      size_t shstrndx;

      elf_version (EV_CURRENT);
      elf = elf_memory ((char *) m->data, m->size);
      if (elf != NULL && elf_getshdrstrndx (elf, &shstrndx) == 0)
        while ((scn = elf_nextscn (elf, scn)) != NULL)
          {
            GElf_Shdr sh;
            const char *sname;
            int k;

            if (gelf_getshdr (scn, &sh) == NULL || (sname = elf_strptr (elf, shstrndx, sh.sh_name)) == NULL)
              continue;
            k = strcmp (sname, ".plt") == 0 ? 0 : strcmp (sname, ".plt.sec") == 0 ? 1 : -1;
            if (k >= 0)
              {
                info->plt_start[k] = sh.sh_addr;
                info->plt_end[k] = sh.sh_addr + sh.sh_size;
              }
          }
      if (elf != NULL)
        elf_end (elf);
    }
  info->plt_read = TRUE;
  for (guint k = 0; k < 2; k++)
    if (vaddr >= info->plt_start[k] && vaddr < info->plt_end[k])
      return TRUE;
  return FALSE;
}

/* A PLT stub has no symbol of its own: it is named after the function it jumps to, as perf and
 * objdump do ("memcmp@plt"). Entry k of .plt.sec, or k + 1 of .plt (whose first entry calls
 * the resolver), goes through relocation k of .rela.plt. */
static char *
plt_name (const FcModule *m,
          guint64         vaddr)
{
  Elf *elf;
  Elf_Scn *scn = NULL;
  GElf_Shdr plt = { 0 }, plt_sec = { 0 }, rela = { 0 };
  Elf_Scn *rela_scn = NULL;
  size_t shstrndx;
  char *name = NULL;

  if (m->data == NULL)
    return NULL;
  elf_version (EV_CURRENT);
  elf = elf_memory ((char *) m->data, m->size);
  if (elf == NULL)
    return NULL;
  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    goto out;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      const char *sname;

      if (gelf_getshdr (scn, &sh) == NULL || (sname = elf_strptr (elf, shstrndx, sh.sh_name)) == NULL)
        continue;
      if (strcmp (sname, ".plt") == 0)
        plt = sh;
      else if (strcmp (sname, ".plt.sec") == 0)
        plt_sec = sh;
      else if (strcmp (sname, ".rela.plt") == 0)
        {
          rela = sh;
          rela_scn = scn;
        }
    }
  if (rela_scn != NULL && rela.sh_entsize > 0)
    {
      gint64 index = -1;

      if (plt_sec.sh_size > 0 && vaddr >= plt_sec.sh_addr && vaddr < plt_sec.sh_addr + plt_sec.sh_size)
        index = (vaddr - plt_sec.sh_addr) / 16;
      else if (plt.sh_size > 0 && vaddr >= plt.sh_addr + 16 && vaddr < plt.sh_addr + plt.sh_size)
        index = (vaddr - plt.sh_addr) / 16 - 1;
      if (index >= 0 && (guint64) index < rela.sh_size / rela.sh_entsize)
        {
          Elf_Data *data = elf_getdata (rela_scn, NULL);
          Elf_Scn *symtab = elf_getscn (elf, rela.sh_link);
          GElf_Shdr symsh;
          GElf_Rela r;
          GElf_Sym sym;

          if (data != NULL && symtab != NULL && gelf_getshdr (symtab, &symsh) != NULL &&
              gelf_getrela (data, (int) index, &r) != NULL &&
              gelf_getsym (elf_getdata (symtab, NULL), (int) GELF_R_SYM (r.r_info), &sym) != NULL)
            {
              const char *target = elf_strptr (elf, symsh.sh_link, sym.st_name);
              if (target != NULL && target[0] != 0)
                name = g_strdup_printf ("%.*s@plt", (int) strcspn (target, "@"), target);
            }
        }
    }
out:
  elf_end (elf);
  return name;
}

/**
 * fc_symbolizer_refresh_jit:
 * @force: read now, not at most every 200 ms (at the end of a recording: Java writes its map
 *   at exit)
 *
 * Reads what the process's perf map and jitdump file gained since the last read.
 */
void
fc_symbolizer_refresh_jit (FcSymbolizer *self,
                           gboolean      force)
{
  const char *jitdump = fc_proc_maps_get_jitdump (self->maps);
  gint64 now = g_get_monotonic_time ();

  if (!force && now - self->jit_read_us < JIT_READ_INTERVAL_US)
    return;
  self->jit_read_us = now;
  self->perf_map_found |= fc_perf_map_read (self->perf_map, self->jit);
  if (jitdump != NULL && self->jitdump == NULL)
    self->jitdump = fc_jitdump_new (fc_proc_maps_get_pid (self->maps), jitdump);
  if (self->jitdump != NULL && self->jitdump_error == NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!fc_jitdump_read (self->jitdump, self->jit, &error) && error != NULL)
        self->jitdump_error = g_strdup (error->message);
    }
}

void
fc_symbolizer_get_jit_info (FcSymbolizer *self,
                            FcJitInfo    *info)
{
  info->perf_map = fc_perf_map_get_name (self->perf_map);
  info->perf_map_found = self->perf_map_found;
  info->jitdump = self->jitdump != NULL ? fc_jitdump_get_path (self->jitdump) : NULL;
  info->jitdump_error = self->jitdump_error;
  info->n_entries = fc_jit_table_get_n_entries (self->jit);
  info->n_named = self->n_jit_named;
  info->n_unnamed = self->n_jit_unnamed;
}

/* The instance of @m's file mapped from its start (the one the dynamic loader mapped). */
/* a runtime's own code, not the application's: V8's builtins and stubs, HotSpot's
 * interpreter and stubs, CPython's trampolines (their Python frames are the application) */
static gboolean
jit_name_is_runtime (const char *name)
{
  static const char * const prefixes[] = {
    "Builtin:", "BytecodeHandler:", "Stub:", "RegExp:", "Interpreter", "StubRoutines", "Handler:",
    "py::", "[",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* what an address in no module was named with: the maps and the JIT tables as they were */
static guint64
unknown_tag (FcSymbolizer *self)
{
  return ((guint64) fc_proc_maps_get_generation (self->maps) << 32 | fc_jit_table_get_version (self->jit)) + 1;
}

/* An address in no module: JIT code the runtime named in a perf map or jitdump, JIT code it
 * did not name, or no code at all. Looked up again when the maps or the JIT tables changed;
 * a symbol handed out stays alive when a new name replaces it. */
static const FcSymbol *
lookup_outside_modules (FcSymbolizer *self,
                        gint64        key)
{
  FcSymbol *sym = g_hash_table_lookup (self->unknown_cache, &key);
  FcSymbol *old = NULL;
  gboolean code = fc_proc_maps_is_code (self->maps, key);
  const FcJitEntry *entry;
  g_autofree char *name = NULL;

  /* JIT code still without a name: the maps may have grown (read at most every 200 ms) */
  if (code && (sym == NULL || sym->unnamed))
    fc_symbolizer_refresh_jit (self, FALSE);
  if (sym != NULL && GPOINTER_TO_SIZE (g_hash_table_lookup (self->unknown_gen, &key)) == unknown_tag (self))
    return sym;
  entry = fc_jit_table_lookup (self->jit, key);
  if (entry != NULL)
    name = g_strdup (entry->name);
  else if (code)
    name = g_strdup (JIT_CODE_UNNAMED);
  else
    name = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", (guint64) key);

  if (sym == NULL || strcmp (sym->function, name) != 0)
    {
      if (sym != NULL)
        {
          gpointer stolen_key = NULL;

          g_hash_table_steal_extended (self->unknown_cache, &key, &stolen_key, NULL);
          g_free (stolen_key);
          g_ptr_array_add (self->retired, sym);
          old = sym;
        }
      else if (code || entry != NULL)
        {
          if (entry != NULL)
            self->n_jit_named++;
          else
            self->n_jit_unnamed++;
        }
      sym = g_new0 (FcSymbol, 1);
      sym->function = g_steal_pointer (&name);
      sym->lineno = entry != NULL && entry->line > 0 ? entry->line : -1;
      if (entry != NULL && entry->file != NULL)
        {
          sym->abs_path = g_strdup (entry->file);
          sym->filename = g_path_get_basename (entry->file);
        }
      sym->unnamed = entry == NULL;
      sym->in_app = entry != NULL && !jit_name_is_runtime (entry->name);
      g_hash_table_insert (self->unknown_cache, g_memdup2 (&key, sizeof key), sym);
      /* the samples taken while it had no name still point at the old symbol: renamed at the
       * next rename_jit(), whichever lookup found the name (a later sample's, most often) */
      if (old != NULL && old->unnamed && entry != NULL)
        {
          g_hash_table_insert (self->named_late, old, sym);
          self->n_jit_unnamed--;
          self->n_jit_named++;
        }
    }
  g_hash_table_insert (self->unknown_gen, g_memdup2 (&key, sizeof key), GSIZE_TO_POINTER (unknown_tag (self)));
  return sym;
}

/**
 * fc_symbolizer_rename_jit:
 *
 * Reads the JIT maps now (a map written at exit is there only then) and names the JIT code
 * that was looked up before a name was known.
 *
 * Returns: (transfer full): old FcSymbol * -> the new one, for the addresses named since the
 *   last call (now, or by a lookup in between)
 */
GHashTable *
fc_symbolizer_rename_jit (FcSymbolizer *self)
{
  GHashTable *renamed;
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  gpointer key, value;

  fc_symbolizer_refresh_jit (self, TRUE);
  g_hash_table_iter_init (&iter, self->unknown_cache);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((FcSymbol *) value)->unnamed && fc_jit_table_lookup (self->jit, *(gint64 *) key) != NULL)
      g_array_append_val (keys, *(gint64 *) key);
  for (guint i = 0; i < keys->len; i++)
    lookup_outside_modules (self, g_array_index (keys, gint64, i));
  renamed = g_steal_pointer (&self->named_late);
  self->named_late = g_hash_table_new (NULL, NULL);
  return renamed;
}

/* A system library's lines and inlined calls are in its separate debug file, whose compressed
 * DWARF took ~140 ms of CPU to inflate (libc's, in every recording: most of the unwinder's time
 * in a short one). Its symbol table names its functions; its lines are read when asked for,
 * FC_SYSTEM_LINES=1. The program's own modules and libraries outside the system's directories
 * always have them. */
static gboolean
wants_lines (const FcModule *m)
{
  static gint system_lines = -1;

  if (m->in_app)
    return TRUE;
  if (g_atomic_int_get (&system_lines) < 0)
    g_atomic_int_set (&system_lines, g_strcmp0 (g_getenv ("FC_SYSTEM_LINES"), "1") == 0);
  return g_atomic_int_get (&system_lines) == 1;
}

const FcSymbol *
fc_symbolizer_lookup (FcSymbolizer *self,
                      guint64       addr,
                      gboolean      is_return_address)
{
  gint64 key = (gint64) (is_return_address && addr > 0 ? addr - 1 : addr);
  FcSymbol *sym = g_hash_table_lookup (self->cache, &key);
  const FcModule *m;
  ModuleInfo *info = NULL;
  Dwfl_Module *mod = NULL;
  const char *name = NULL;
  guint64 vaddr = 0;

  if (sym != NULL && self->debuginfod_gen == fc_debuginfod_get_generation ())
    return sym;
  if (sym != NULL)
    {
      refresh_for_debuginfod (self);
      return fc_symbolizer_lookup (self, addr, is_return_address);
    }

  fc_dwfl_wait_for_debuginfod_until (&self->debuginfod_deadline);
  m = fc_proc_maps_find_or_reload (self->maps, key);
  if (m == NULL)
    return lookup_outside_modules (self, key);

  sym = g_new0 (FcSymbol, 1);
  sym->lineno = -1;
  sym->module = m;
  sym->in_app = m->in_app;

  /* looked up at the file's own address, the same in every mapping of it (node maps part of
   * its text a second time near 0x7f...) and every process */
  vaddr = key - m->bias;
  info = ensure_reported (self, m);
  mod = info->mod;
  g_mutex_lock (&info->lock);
  if (mod != NULL)
    name = find_symbol (info, vaddr);
  if (mod != NULL && wants_lines (m))
    {
      Dwfl_Line *line;

      line = dwfl_module_getsrc (mod, vaddr);
      if (line == NULL)
        {
          Dwarf_Die cudie;
          Dwarf_Line *dline = line_without_aranges (info, vaddr, &cudie);
          const char *src;
          int lineno = -1;

          if (dline != NULL && (src = dwarf_linesrc (dline, NULL, NULL)) != NULL)
            {
              Dwarf_Attribute comp_dir;

              dwarf_lineno (dline, &lineno);
              sym->abs_path = source_path (src, dwarf_formstring (dwarf_attr (&cudie, DW_AT_comp_dir, &comp_dir)));
              sym->filename = g_path_get_basename (src);
              sym->lineno = lineno > 0 ? lineno : -1;
            }
        }
      if (line != NULL)
        {
          int lineno = -1;
          const char *src = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);
          if (src != NULL)
            {
              sym->abs_path = source_path (src, dwfl_line_comp_dir (line));
              sym->filename = g_path_get_basename (src);
              sym->lineno = lineno > 0 ? lineno : -1;
            }
        }
    }

  if (name != NULL && name[0] != 0)
    {
      /* "__libc_start_main@@GLIBC_2.34": the symbol version is not part of the name */
      g_autofree char *plain = g_strndup (name, strcspn (name, "@"));
      sym->function = fc_demangle (plain[0] ? plain : name);
    }
  else
    {
      g_autofree char *base = g_path_get_basename (m->path);
      guint64 start = key;

      /* no symbol: name the function (its unwind entry's start), not the instruction, so that
       * samples in one function merge; a stripped program's entry point is its _start */
      if (fc_module_find_function (m, key, &start) && m->is_main && start == m->entry)
        sym->function = g_strdup ("_start");
      else if (in_plt (info, m, vaddr) &&
               (sym->function = plt_name (m, key - m->bias)) != NULL)
        ;
      else
        {
          sym->function = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, start - m->bias);
          sym->unnamed = TRUE;
        }
    }

  if (mod != NULL && sym->abs_path != NULL)
    sym = expand_inlines (sym, mod, vaddr);
  g_mutex_unlock (&info->lock);

  g_hash_table_insert (self->cache, g_memdup2 (&key, sizeof key), sym);
  return sym;
}

/* Symbol tables read from files by this process so far, for tests and benchmarks: processes that
 * map the same file share one. */
guint
fc_symbolizer_get_n_symbol_tables_read (void)
{
  return g_atomic_int_get (&n_symbol_tables_read);
}
