/*
 * Loads the plugin like strada-host does (dlopen + strada_plugin_entry_v1) with a fake host
 * table, creates an instance, sends it a `connect` and checks the reply it gets.
 * Usage: ./test_plugin ./libhello_world.so
 */
#include "strada_plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static char last_reply[1024];
static int replies;

static strada_status fake_reply(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string json) {
    (void)host;
    (void)instance;
    snprintf(last_reply, sizeof last_reply, "%.*s", (int)json.length, json.data);
    replies++;
    return STRADA_OK;
}

static void fake_log(const strada_host_api_v1 *host, strada_log_level level, strada_string text) {
    (void)host;
    fprintf(stderr, "plugin log (%d): %.*s\n", (int)level, (int)text.length, text.data);
}

static int failures;
#define CHECK(condition) \
    do { if (!(condition)) { fprintf(stderr, "FAILED: %s (line %d)\n", #condition, __LINE__); failures++; } } while (0)

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s ./lib<plugin>.so\n", argv[0]);
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    strada_plugin_entry_v1_fn entry = NULL;
    void *symbol = dlsym(library, STRADA_PLUGIN_ENTRY_V1);
    if (symbol) memcpy(&entry, &symbol, sizeof entry); /* ISO C has no object → function pointer cast */
    CHECK(entry != NULL);
    if (!entry) return 1;

    strada_host_api_v1 host = {0};
    host.struct_size = sizeof host;
    host.abi_major = STRADA_PLUGIN_ABI_MAJOR;
    host.abi_minor = STRADA_PLUGIN_ABI_MINOR;
    host.reply = fake_reply;
    host.log = fake_log;
    const strada_plugin_v1 *plugin = NULL;
    CHECK(entry(&host, &plugin) == STRADA_OK);
    if (!plugin) return 1;
    CHECK(plugin->component_count == 1);
    CHECK(strcmp(plugin->component_names[0], "hello-world") == 0);

    int page = 0; /* any address works as the fake host instance */
    strada_plugin_instance *instance =
        plugin->create_instance(plugin->plugin_context, "hello-world", (strada_host_instance *)&page);
    CHECK(instance != NULL);
    if (!instance) return 1;

    const char *connect = "{\"id\":\"1\",\"component\":\"hello-world\",\"event\":\"connect\","
                          "\"data\":{\"name\":\"Ada \\\"Countess\\\"\",\"metadata\":{\"url\":\"https://app.test/\"}}}";
    strada_string message = {connect, strlen(connect)};
    plugin->receive(instance, message);
    CHECK(replies == 1);
    CHECK(strcmp(last_reply, "{\"id\":\"1\",\"component\":\"hello-world\",\"event\":\"connect\","
                             "\"data\":{\"greeting\":\"Hello, Ada \\\"Countess\\\"!\"}}") == 0);

    const char *garbage = "{\"id\":";
    strada_string bad = {garbage, strlen(garbage)};
    fprintf(stderr, "sending a malformed message; the plugin should log a warning:\n");
    plugin->receive(instance, bad); /* logged and ignored, never a crash */
    CHECK(replies == 1);

    plugin->destroy_instance(instance);
    if (failures) {
        fprintf(stderr, "%d check(s) failed; last reply: %s\n", failures, last_reply);
        return 1;
    }
    printf("ok: hello-world replied %s\n", last_reply);
    return 0;
}
