/* The operating system's floor for an isolated plugin's round trip: what crossing to another process and back
 * costs with nothing else in the way. Three shapes, each N sequential round trips of one byte with a pause between
 * them (as the bench page's lone round trips have), p50 and p99 in microseconds, printed as one JSON object:
 *   "thread":  a thread of the same process answers (the wake-ups of an in-process hop to another thread);
 *   "process": a child process answers through two pipes (one wake-up each way);
 *   "host":    the host's shape: the main thread writes to the child; a reader thread of the parent reads the
 *              answer and wakes the main thread through an eventfd it polls (the child, the reader, the main thread).
 * Build: cc -O2 -pthread pingpong.c -o pingpong; run: ./pingpong [trips] [pause µs]. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int trips = 2000, pause_us = 250;

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void pause_between(void) {
    struct timespec t = {0, pause_us * 1000L};
    nanosleep(&t, NULL);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *times, int last) {
    qsort(times, trips, sizeof *times, compare);
    printf("\"%s\": {\"p50\": %.1f, \"p99\": %.1f}%s", name, times[trips / 2], times[trips * 99 / 100],
           last ? "" : ", ");
}

/* Answers every byte read from `in` on `out` until end of file. */
static void *echo(void *fds) {
    int *pair = fds;
    char byte;
    while (read(pair[0], &byte, 1) == 1) {
        if (write(pair[1], &byte, 1) != 1) break;
    }
    return NULL;
}

/* Times sequential one-byte round trips: written to `out`, answered on `in`; the first tenth are not counted. */
static void time_trips(int out, int in, double *times) {
    char byte = 1;
    for (int i = -trips / 10; i < trips; i++) {
        pause_between();
        double start = now_us();
        if (write(out, &byte, 1) != 1 || read(in, &byte, 1) != 1) exit(1);
        if (i >= 0) times[i] = now_us() - start;
    }
}

static void measure_thread(double *times) {
    int there[2], back[2];
    if (pipe(there) || pipe(back)) exit(1);
    int fds[2] = {there[0], back[1]};
    pthread_t thread;
    pthread_create(&thread, NULL, echo, fds);
    time_trips(there[1], back[0], times);
    close(there[1]);
    pthread_join(thread, NULL);
}

/* A child answering on `to_parent` what it reads on `from_parent`; returns its pid. */
static pid_t spawn_echo(int *to_child, int *to_parent) {
    if (pipe(to_child) || pipe(to_parent)) exit(1);
    pid_t child = fork();
    if (child == 0) {
        close(to_child[1]);
        close(to_parent[0]);
        int fds[2] = {to_child[0], to_parent[1]};
        echo(fds);
        _exit(0);
    }
    close(to_child[0]);
    close(to_parent[1]);
    return child;
}

static void measure_process(double *times) {
    int to_child[2], to_parent[2];
    pid_t child = spawn_echo(to_child, to_parent);
    time_trips(to_child[1], to_parent[0], times);
    close(to_child[1]);
    waitpid(child, NULL, 0);
}

struct reader { int from_child, wake; };

/* The parent's reader thread: each answer read wakes the main thread through the eventfd. */
static void *relay(void *arg) {
    struct reader *reader = arg;
    char byte;
    uint64_t one = 1;
    while (read(reader->from_child, &byte, 1) == 1) {
        if (write(reader->wake, &one, sizeof one) != sizeof one) break;
    }
    return NULL;
}

static void measure_host(double *times) {
    int to_child[2], to_parent[2];
    pid_t child = spawn_echo(to_child, to_parent);
    struct reader reader = {to_parent[0], eventfd(0, EFD_CLOEXEC)};
    pthread_t thread;
    pthread_create(&thread, NULL, relay, &reader);
    char byte = 1;
    uint64_t count;
    struct pollfd wake = {reader.wake, POLLIN, 0};
    for (int i = -trips / 10; i < trips; i++) {
        pause_between();
        double start = now_us();
        if (write(to_child[1], &byte, 1) != 1) exit(1);
        if (poll(&wake, 1, -1) != 1 || read(reader.wake, &count, sizeof count) != sizeof count) exit(1);
        if (i >= 0) times[i] = now_us() - start;
    }
    close(to_child[1]);
    pthread_join(thread, NULL);
    waitpid(child, NULL, 0);
}

int main(int argc, char **argv) {
    if (argc > 1) trips = atoi(argv[1]);
    if (argc > 2) pause_us = atoi(argv[2]);
    if (trips < 10) trips = 10;
    double *times = calloc(trips, sizeof *times);
    printf("{\"trips\": %d, \"pause_us\": %d, ", trips, pause_us);
    measure_thread(times);
    report("thread", times, 0);
    measure_process(times);
    report("process", times, 0);
    measure_host(times);
    report("host", times, 1);
    printf("}\n");
    return 0;
}
