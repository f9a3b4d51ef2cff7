/* The host's crash reporter for plugins that run in its process: which plugin call the main thread is in, and
   a fatal-signal handler that names it in one line before the host dies with the signal.

   Internal to strada-host (not part of the plugin ABI). Everything the handler writes is formatted before any
   plugin code runs; the handler itself only reads the slot below and calls write(2), open(2), close(2),
   sigaction(2) and raise(3), which are async-signal-safe. */
#ifndef STRADA_CRASH_H
#define STRADA_CRASH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the handler writes for one plugin, formatted when the plugin is loaded and kept for the life of the
   process (plugins are never unloaded). Owned by the host; never freed. */
typedef struct strada_crash_plugin {
    /* Opens the stderr line: "plugin dev.example.counter (/path/libcounter.so)". */
    const char *name;
    size_t name_length;
    /* Opens the crash record's line: the plugin file's identity "device inode size seconds.nanoseconds\tpath\t";
       the handler appends the call and a newline. Length 0: nothing is recorded. */
    const char *record;
    size_t record_length;
} strada_crash_plugin;

/* The plugin call the main thread is in, or plugin NULL: outside plugin code. [main thread] */
typedef struct strada_crash_slot {
    const strada_crash_plugin *plugin;
    /* A string that lives as long as the process (a literal): "receive", "entry point", "action", ... */
    const char *call;
} strada_crash_slot;

extern strada_crash_slot strada_crash_current;

/* Marks the main thread as inside `call` of `plugin`; returns the slot as it was, for strada_crash_leave.
   Two loads and two stores: it brackets every call into plugin code, messages included. [main thread] */
static inline strada_crash_slot strada_crash_enter(const strada_crash_plugin *plugin, const char *call) {
    strada_crash_slot previous = strada_crash_current;
    /* Plain stores (relaxed atomics compile to one mov each); the fences keep the compiler from moving them
       across the plugin call: the handler runs on this thread, so no other ordering is needed. */
    __atomic_store_n(&strada_crash_current.call, call, __ATOMIC_RELAXED);
    __atomic_store_n(&strada_crash_current.plugin, plugin, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return previous;
}

/* Puts back the slot strada_crash_enter returned (a call into plugin code may nest in another). [main thread] */
static inline void strada_crash_leave(strada_crash_slot previous) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&strada_crash_current.plugin, previous.plugin, __ATOMIC_RELAXED);
    __atomic_store_n(&strada_crash_current.call, previous.call, __ATOMIC_RELAXED);
}

/* The slot as it is now (what the handler would read). [main thread] */
static inline strada_crash_slot strada_crash_now(void) { return strada_crash_current; }

/* Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP (with an alternate signal stack,
   so a plugin's stack overflow is reported too). `record_file` (copied) is appended one line for each crash in a
   plugin call; `tail` (copied) ends the stderr line. A fatal signal on the main thread inside a plugin call writes
   "<name> crashed (signal N) in <call><tail>\n" to stderr, appends the record, and re-raises the signal with its
   default action, so the host dies of it (core dump and exit status unchanged). Any other fatal signal goes to
   the handler installed before (the Swift runtime's backtracer, or the default action). Returns 0, or -1 when a
   handler could not be installed. Call once, before any plugin is loaded. [main thread] */
int strada_crash_install(const char *record_file, const char *tail);

#ifdef __cplusplus
}
#endif

#endif
