/*
 * Loads the plugin like strada-host does (dlopen + strada_plugin_entry_v1) with a fake host whose table
 * has every function filled in, and plays a page: connect (a reply and a Greet button), two presses of the
 * button (replies to that connect), disconnect (the button goes), and a malformed message (a log line).
 * Usage: ./test_plugin ./libhello_world.so
 */
#include "strada_plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* What the fake host saw, so the checks below can look at it. */
static struct {
    int replies;
    char last_reply[1024];      /* reply: the whole message */
    char last_event_reply[512]; /* reply_to_event: "<event> <data>" */
    int logs, warnings;
    char button_id[64], button_title[64]; /* the button shown; "" when none */
    int buttons_set, buttons_removed;
    int queued;
} seen;

static void copy(char *out, size_t capacity, strada_string text) {
    snprintf(out, capacity, "%.*s", (int)text.length, text.data ? text.data : "");
}

static strada_status fake_reply(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string json) {
    (void)host;
    if (!instance || !json.data) return STRADA_ERR_INVALID_ARGUMENT;
    copy(seen.last_reply, sizeof seen.last_reply, json);
    seen.replies++;
    return STRADA_OK;
}

static void fake_log(const strada_host_api_v1 *host, strada_log_level level, strada_string text) {
    (void)host;
    seen.logs++;
    if (level >= STRADA_LOG_WARNING) seen.warnings++;
    fprintf(stderr, "plugin log (%d): %.*s\n", (int)level, (int)text.length, text.data ? text.data : "");
}

static const char *fake_codec_settings_json(const strada_host_api_v1 *host) {
    (void)host;
    return "{\"dates\":\"deferredToDate\",\"keys\":\"useDefaultKeys\"}";
}

static strada_main_thread_fn queued_fn;
static void *queued_context;

/* Keeps the work; the test runs it later, as the host runs it after the current call returns. */
static strada_status fake_run_on_main_thread(const strada_host_api_v1 *host, strada_main_thread_fn fn,
                                             void *context) {
    (void)host;
    if (!fn) return STRADA_ERR_INVALID_ARGUMENT;
    queued_fn = fn;
    queued_context = context;
    seen.queued++;
    return STRADA_OK;
}

static strada_status fake_set_button(const strada_host_api_v1 *host, strada_host_instance *instance,
                                     const strada_button_v1 *button) {
    (void)host;
    if (!instance || !button || button->struct_size < STRADA_BUTTON_V1_MIN_SIZE_1_0 || button->id.length == 0) {
        return STRADA_ERR_INVALID_ARGUMENT;
    }
    copy(seen.button_id, sizeof seen.button_id, button->id);
    copy(seen.button_title, sizeof seen.button_title, button->title);
    seen.buttons_set++;
    return STRADA_OK;
}

static strada_status fake_remove_button(const strada_host_api_v1 *host, strada_host_instance *instance,
                                        strada_string id) {
    (void)host;
    if (!instance) return STRADA_ERR_INVALID_ARGUMENT;
    char removed[64];
    copy(removed, sizeof removed, id);
    if (strcmp(removed, seen.button_id) == 0) seen.button_id[0] = '\0';
    seen.buttons_removed++;
    return STRADA_OK;
}

static const void *fake_get_extension(const strada_host_api_v1 *host, const char *extension_id) {
    (void)host;
    (void)extension_id;
    return NULL; /* this fake offers no extensions, as a host may (check for NULL) */
}

static int connects; /* how many connect messages the page sent: reply_to_event answers the last one */

static strada_status fake_reply_to_event(const strada_host_api_v1 *host, strada_host_instance *instance,
                                         strada_string event, strada_string data_json) {
    (void)host;
    if (!instance || event.length == 0) return STRADA_ERR_INVALID_ARGUMENT;
    char name[64], data[400];
    copy(name, sizeof name, event);
    copy(data, sizeof data, data_json);
    if (strcmp(name, "connect") != 0 || connects == 0) return STRADA_ERR_NOT_FOUND;
    snprintf(seen.last_event_reply, sizeof seen.last_event_reply, "%s %s", name, data);
    return STRADA_OK;
}

static int failures;
#define CHECK(condition) \
    do { if (!(condition)) { fprintf(stderr, "FAILED: %s (line %d)\n", #condition, __LINE__); failures++; } } while (0)

static void deliver(const strada_plugin_v1 *plugin, strada_plugin_instance *instance, const char *json) {
    strada_string message = {json, strlen(json)};
    plugin->receive(instance, message);
}

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

    /* Every function of the table, as the host fills it: a plugin may call any of them. */
    strada_host_api_v1 host = {
        .struct_size = sizeof host,
        .abi_major = STRADA_PLUGIN_ABI_MAJOR,
        .abi_minor = STRADA_PLUGIN_ABI_MINOR,
        .host_context = NULL,
        .reply = fake_reply,
        .log = fake_log,
        .codec_settings_json = fake_codec_settings_json,
        .run_on_main_thread = fake_run_on_main_thread,
        .set_button = fake_set_button,
        .remove_button = fake_remove_button,
        .get_extension = fake_get_extension,
        .reply_to_event = fake_reply_to_event,
    };
    const strada_plugin_v1 *plugin = NULL;
    CHECK(entry(&host, &plugin) == STRADA_OK);
    if (!plugin) return 1;
    CHECK(plugin->struct_size >= STRADA_PLUGIN_V1_MIN_SIZE_1_0);
    CHECK(plugin->component_count == 1);
    CHECK(strcmp(plugin->component_names[0], "hello-world") == 0);

    int page = 0; /* any address works as the fake host instance */
    strada_plugin_instance *instance =
        plugin->create_instance(plugin->plugin_context, "hello-world", (strada_host_instance *)&page);
    CHECK(instance != NULL);
    if (!instance) return 1;

    /* connect: a reply to it (its id kept) and the Greet button. */
    connects++;
    deliver(plugin, instance,
         "{\"id\":\"1\",\"component\":\"hello-world\",\"event\":\"connect\","
         "\"data\":{\"name\":\"Ada \\\"Countess\\\"\",\"metadata\":{\"url\":\"https://app.test/\"}}}");
    CHECK(seen.replies == 1);
    CHECK(strcmp(seen.last_reply, "{\"id\":\"1\",\"component\":\"hello-world\",\"event\":\"connect\","
                                  "\"data\":{\"greeting\":\"Hello, Ada \\\"Countess\\\"!\",\"presses\":0}}") == 0);
    CHECK(strcmp(seen.button_id, "greet") == 0);
    CHECK(strcmp(seen.button_title, "Greet") == 0);

    /* Each press of the button answers that connect again, counting. */
    if (plugin->control_activated) {
        strada_string greet = {"greet", 5};
        plugin->control_activated(instance, greet);
        CHECK(strcmp(seen.last_event_reply, "connect {\"greeting\":\"Hello, Ada \\\"Countess\\\"!\",\"presses\":1}") == 0);
        plugin->control_activated(instance, greet);
        CHECK(strcmp(seen.last_event_reply, "connect {\"greeting\":\"Hello, Ada \\\"Countess\\\"!\",\"presses\":2}") == 0);
    }
    CHECK(plugin->control_activated != NULL);

    /* disconnect: the button goes. */
    deliver(plugin, instance, "{\"id\":\"2\",\"component\":\"hello-world\",\"event\":\"disconnect\",\"data\":{}}");
    CHECK(seen.buttons_removed == 1);
    CHECK(seen.button_id[0] == '\0');

    fprintf(stderr, "sending a malformed message; the plugin should log a warning:\n");
    int warnings = seen.warnings;
    deliver(plugin, instance, "{\"id\":"); /* logged and ignored, never a crash */
    CHECK(seen.warnings == warnings + 1);
    CHECK(seen.replies == 1);

    if (queued_fn) queued_fn(queued_context); /* work the plugin queued runs after its call, as in the host */
    plugin->destroy_instance(instance);
    if (failures) {
        fprintf(stderr, "%d check(s) failed; last reply: %s; last reply to an event: %s\n", failures, seen.last_reply,
                seen.last_event_reply);
        return 1;
    }
    printf("ok: hello-world replied %s; its greet button, pressed twice, replied to %s\n", seen.last_reply,
           seen.last_event_reply);
    return 0;
}
