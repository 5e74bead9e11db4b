/* python-offsets.c - prints the CPython struct offsets core/capture/fc-python-layout.c holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not built: the tables were made with it from CPython's own headers, and it checks them
 * against another build of the same minor version:
 *   gcc -I PREFIX/include/python3.X tools/python-offsets.c -o /tmp/off && /tmp/off
 * Debian's 3.11.2 (python3.11-dev) and pyenv's 3.11.7 give the same figures; 3.12.1 and 3.13.0
 * were read from pyenv builds. 3.13 and later publish their offsets (_Py_DebugOffsets).
 */

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_runtime.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_code.h>
#include <stdio.h>
#include <stddef.h>
#define P(s,f) printf("%-40s %zu\n", #s "." #f, offsetof(s,f))
int main(void){
 printf("version %x\n", PY_VERSION_HEX);
 P(_PyRuntimeState, interpreters.head);
 P(PyInterpreterState, next);
 P(PyInterpreterState, threads.head);
 P(PyThreadState, next);
 P(PyThreadState, interp);
#if PY_VERSION_HEX < 0x030D0000
 P(PyThreadState, cframe);
 P(_PyCFrame, current_frame);
#else
 P(PyThreadState, current_frame);
#endif
 P(PyThreadState, thread_id);
 P(PyThreadState, native_thread_id);
 P(PyThreadState, datastack_chunk);
 P(PyThreadState, datastack_top);
 P(PyThreadState, datastack_limit);
 printf("sizeof PyThreadState %zu\n", sizeof(PyThreadState));
#if PY_VERSION_HEX < 0x030D0000
 P(_PyInterpreterFrame, f_code);
 P(_PyInterpreterFrame, prev_instr);
#else
 P(_PyInterpreterFrame, f_executable);
 P(_PyInterpreterFrame, instr_ptr);
#endif
 P(_PyInterpreterFrame, previous);
 P(_PyInterpreterFrame, owner);
#if PY_VERSION_HEX < 0x030C0000
 P(_PyInterpreterFrame, is_entry);
#endif
 P(_PyInterpreterFrame, localsplus);
 P(PyCodeObject, co_filename);
 P(PyCodeObject, co_name);
 P(PyCodeObject, co_qualname);
 P(PyCodeObject, co_linetable);
 P(PyCodeObject, co_firstlineno);
 P(PyCodeObject, co_code_adaptive);
 P(PyObject, ob_type);
 P(PyTypeObject, tp_name);
 P(PyBytesObject, ob_sval);
 P(PyVarObject, ob_size);
 P(PyASCIIObject, length);
 P(PyASCIIObject, state);
 printf("sizeof PyASCIIObject %zu PyCompactUnicodeObject %zu\n", sizeof(PyASCIIObject), sizeof(PyCompactUnicodeObject));
 P(_PyStackChunk, previous); P(_PyStackChunk, size); P(_PyStackChunk, top); P(_PyStackChunk, data);
 return 0;
}
