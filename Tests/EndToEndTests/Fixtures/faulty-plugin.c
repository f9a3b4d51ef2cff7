/* A test plugin in C that misbehaves on request, for the isolation tests: component "faulty".
   connect → a header-bar button "Alive"; pressing it replies {"alive": true}.
   crash → segfault; abort → abort(); trap → a trap instruction, as Swift's fatalError; hang → spins forever;
   leak → allocates until memory runs out. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "strada_plugin.h"

static const strada_host_api_v1 *the_host;

static strada_string str(const char *text) {
    strada_string s = {text, strlen(text)};
    return s;
}

static int has(strada_string json, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= json.length; i++)
        if (memcmp(json.data + i, needle, n) == 0) return 1;
    return 0;
}

static strada_plugin_instance *create(void *context, const char *name, strada_host_instance *host_instance) {
    (void)context; (void)name;
    return (strada_plugin_instance *)host_instance;
}

static void receive(strada_plugin_instance *instance, strada_string json) {
    strada_host_instance *host_instance = (strada_host_instance *)instance;
    if (has(json, "\"event\":\"connect\"")) {
        strada_button_v1 button;
        memset(&button, 0, sizeof button);
        button.struct_size = sizeof button;
        button.placement = STRADA_PLACEMENT_END;
        button.id = str("alive");
        button.title = str("Alive");
        button.icon_name = str("");
        button.enabled = 1;
        the_host->set_button(the_host, host_instance, &button);
    } else if (has(json, "\"event\":\"crash\"")) {
        volatile int *nowhere = 0;
        *nowhere = 1;
    } else if (has(json, "\"event\":\"abort\"")) {
        abort();
    } else if (has(json, "\"event\":\"trap\"")) {
        __builtin_trap();  /* what Swift's fatalError and failed preconditions do */
    } else if (has(json, "\"event\":\"hang\"")) {
        for (volatile unsigned long spin = 0;; spin++) {}
    } else if (has(json, "\"event\":\"leak\"")) {
        for (;;) {
            char *block = malloc(16 << 20);
            if (!block) abort();  /* out of memory: what a leaking plugin eventually does */
            memset(block, 1, 16 << 20);
        }
    }
}

static void control_activated(strada_plugin_instance *instance, strada_string control_id) {
    (void)control_id;
    the_host->reply_to_event(the_host, (strada_host_instance *)instance, str("connect"), str("{\"alive\":true}"));
}

static void destroy(strada_plugin_instance *instance) { (void)instance; }

static const char *names[] = {"faulty"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.faulty", "1.0.0", names, 0,
    create, receive, 0, control_activated, destroy, 0, 0};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    the_host = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
