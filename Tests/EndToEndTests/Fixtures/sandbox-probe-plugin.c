/* A hostile test plugin in C for the sandbox tests: component "probe". On "connect" with data {"file", "port",
   "pid"} (strings) it tries three things a plugin should not be able to do in the sandbox — read a file in the
   user's home, connect to a TCP server on the host's loopback, signal the host — and replies to the connect
   with what happened to each: {"read": "ok"|"denied: <why>", "connect": …, "signal": …}. Then three calls the
   sandbox's seccomp filter denies — ptrace (PTRACE_CONT on itself: ESRCH where the call is allowed, as it is not
   traced), unshare(CLONE_NEWUSER), keyctl (the session keyring's id), ioctl(TIOCSTI) on its standard input
   (ENOTTY where allowed: a pipe) — reported the same way as "ptrace", "unshare", "keyctl" and "tiocsti". Last, it
   writes /tmp/strada-sandbox-probe-<port> ("tmp": whether the write succeeded), where the test looks for it.
   Compiled after plugin-support.c. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void outcome(char *out, size_t size, int ok) {
    if (ok) snprintf(out, size, "ok");
    else snprintf(out, size, "denied: %s", strerror(errno));
}

static void receive(strada_plugin_instance *plugin_instance, strada_string json) {
    instance *self = (instance *)plugin_instance;
    char event[32], file[1024], port[16], pid[16];
    if (!json_string(json, "event", event, sizeof event) || strcmp(event, "connect") != 0) return;
    if (!json_string(json, "file", file, sizeof file) || !json_string(json, "port", port, sizeof port)
        || !json_string(json, "pid", pid, sizeof pid)) return;
    char read_result[128], connect_result[128], signal_result[128];
    int fd = open(file, O_RDONLY);
    outcome(read_result, sizeof read_result, fd >= 0);
    if (fd >= 0) close(fd);
    int sock = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)atoi(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    outcome(connect_result, sizeof connect_result, sock >= 0 && connect(sock, (struct sockaddr *)&address, sizeof address) == 0);
    if (sock >= 0) close(sock);
    outcome(signal_result, sizeof signal_result, kill((pid_t)atoi(pid), 0) == 0);  /* 0: only asks whether it may */
    char ptrace_result[128], unshare_result[128], keyctl_result[128], tiocsti_result[128];
    outcome(ptrace_result, sizeof ptrace_result, ptrace(PTRACE_CONT, getpid(), 0, 0) == 0);
    outcome(unshare_result, sizeof unshare_result, syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */) == 0);
    /* KEYCTL_GET_KEYRING_ID (0) of KEY_SPEC_SESSION_KEYRING (-3), without creating it (0). */
    outcome(keyctl_result, sizeof keyctl_result, syscall(SYS_keyctl, 0, -3, 0) >= 0);
    char typed = 'x';
    outcome(tiocsti_result, sizeof tiocsti_result, ioctl(0, TIOCSTI, &typed) == 0);
    char tmp_path[64], tmp_result[128];
    snprintf(tmp_path, sizeof tmp_path, "/tmp/strada-sandbox-probe-%s", port);
    int tmp = open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    outcome(tmp_result, sizeof tmp_result, tmp >= 0 && write(tmp, "x", 1) == 1);
    if (tmp >= 0) close(tmp);
    char reply[1024];
    snprintf(reply, sizeof reply,
             "{\"read\":\"%s\",\"connect\":\"%s\",\"signal\":\"%s\",\"ptrace\":\"%s\",\"unshare\":\"%s\","
             "\"keyctl\":\"%s\",\"tiocsti\":\"%s\",\"tmp\":\"%s\"}",
             read_result, connect_result, signal_result, ptrace_result, unshare_result, keyctl_result, tiocsti_result,
             tmp_result);
    the_host->reply_to_event(the_host, self->host_instance, str("connect"), str(reply));
}

static void destroy(strada_plugin_instance *plugin_instance) { free(plugin_instance); }

static const char *names[] = {"probe"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.probe", "1.0", names, 0,
    create, receive, 0, 0, destroy, 0, 0};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    the_host = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
