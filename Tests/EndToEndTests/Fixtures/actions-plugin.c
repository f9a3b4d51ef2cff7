/* A C test plugin with native actions declared in its manifest (actions-plugin.json), called by signature
   through libffi: `strada-host plugin call` and the automation channel's "call" command. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "strada_plugin.h"

int32_t actions_add(int32_t a, int32_t b) { return a + b; }
double actions_scale(double value, int64_t factor) { return value * (double)factor; }
const char *actions_greet(const char *name) {
    static char buffer[128];
    snprintf(buffer, sizeof buffer, "Hello, %s!", name);
    return buffer;
}

static strada_plugin_instance *create(void *c, const char *n, strada_host_instance *h) { (void)c; (void)n; return (strada_plugin_instance *)h; }
static void receive(strada_plugin_instance *i, strada_string j) { (void)i; (void)j; }
static void destroy(strada_plugin_instance *i) { (void)i; }
static const char *names[] = {"actions"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.actions", "1.0.0", names, 0,
    create, receive, 0, 0, destroy, 0, 0};
STRADA_PLUGIN_ENTRY_V1_DEFINE { (void)host; *out_plugin = &plugin; return STRADA_OK; }
