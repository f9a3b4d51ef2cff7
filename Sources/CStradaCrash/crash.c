/* The fatal-signal handler of strada_crash.h. Async-signal-safe: no allocation, no stdio, no locks. */
#define _GNU_SOURCE
#include "strada_crash.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

strada_crash_slot strada_crash_current = {NULL, NULL};

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define FATAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous_actions[FATAL_COUNT];
static char *record_path;
static char *line_tail;
static size_t line_tail_length;

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, bytes, length);
        if (written <= 0) return;
        bytes += written;
        length -= (size_t)written;
    }
}

static void write_text(int fd, const char *text) { write_all(fd, text, strlen(text)); }

static void write_number(int fd, int value) {
    char digits[12];
    size_t at = sizeof digits;
    unsigned number = value < 0 ? 0u : (unsigned)value;
    do {
        digits[--at] = (char)('0' + number % 10);
        number /= 10;
    } while (number > 0 && at > 0);
    write_all(fd, digits + at, sizeof digits - at);
}

static int index_of(int signal_number) {
    for (size_t index = 0; index < FATAL_COUNT; index++) {
        if (fatal_signals[index] == signal_number) return (int)index;
    }
    return -1;
}

static void handle(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    const strada_crash_plugin *plugin = __atomic_load_n(&strada_crash_current.plugin, __ATOMIC_RELAXED);
    const char *call = __atomic_load_n(&strada_crash_current.call, __ATOMIC_RELAXED);
    int index = index_of(signal_number);
    /* Plugin calls are made on the main thread, whose thread id is the process id. */
    if (plugin != NULL && call != NULL && syscall(SYS_gettid) == getpid()) {
        write_all(STDERR_FILENO, "\n", 1);  /* the line starts a line, whatever was being written */
        write_all(STDERR_FILENO, plugin->name, plugin->name_length);
        write_text(STDERR_FILENO, " crashed (signal ");
        write_number(STDERR_FILENO, signal_number);
        write_text(STDERR_FILENO, ") in ");
        write_text(STDERR_FILENO, call);
        write_all(STDERR_FILENO, line_tail, line_tail_length);
        write_all(STDERR_FILENO, "\n", 1);
        if (record_path != NULL && plugin->record_length > 0) {
            int fd = open(record_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (fd >= 0) {
                write_all(fd, plugin->record, plugin->record_length);
                write_text(fd, call);
                write_all(fd, "\n", 1);
                close(fd);
            }
        }
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        sigaction(signal_number, &fallback, NULL);
    } else if (index >= 0) {
        sigaction(signal_number, &previous_actions[index], NULL);
    } else {
        signal(signal_number, SIG_DFL);
    }
    /* Blocked while this handler runs: delivered, to the action just set, as it returns (a fault also repeats). */
    raise(signal_number);
}

int strada_crash_install(const char *record_file, const char *tail) {
    record_path = record_file != NULL ? strdup(record_file) : NULL;
    line_tail = strdup(tail != NULL ? tail : "");
    line_tail_length = line_tail != NULL ? strlen(line_tail) : 0;
    /* A stack of its own, unless one is set already (the Swift runtime's backtracer sets one). */
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
        size_t size = 64 * 1024;
        stack_t stack = {.ss_sp = malloc(size), .ss_flags = 0, .ss_size = size};
        if (stack.ss_sp != NULL) sigaltstack(&stack, NULL);
    }
    int result = 0;
    for (size_t index = 0; index < FATAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handle;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(fatal_signals[index], &action, &previous_actions[index]) != 0) result = -1;
    }
    return result;
}
