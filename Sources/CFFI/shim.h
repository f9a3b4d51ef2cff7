/* libffi for Swift: the ffi_type_* globals are not importable as values, so expose their addresses. */
#ifndef STRADA_CFFI_SHIM_H
#define STRADA_CFFI_SHIM_H
#include <ffi.h>
static inline ffi_type *strada_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *strada_ffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *strada_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *strada_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *strada_ffi_type_pointer(void) { return &ffi_type_pointer; }
#endif
