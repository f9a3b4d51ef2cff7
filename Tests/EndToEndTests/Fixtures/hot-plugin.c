/* A test plugin in C for the hot-reload tests: component "hot". On "connect" it shows a header-bar button
   titled VERSION; pressing it replies to the connect message with {"version": VERSION}. Built with
   -DVERSION="\"v1\"" or "\"v2\"" to tell generations apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strada_plugin.h"

#ifndef VERSION
#define VERSION "v0"
#endif

static const strada_host_api_v1 *the_host;

typedef struct instance {
    strada_host_instance *host_instance;
    char connect_id[64];
} instance;

static strada_plugin_instance *create(void *context, const char *name, strada_host_instance *host_instance) {
    (void)context; (void)name;
    instance *self = calloc(1, sizeof(instance));
    if (self) self->host_instance = host_instance;
    return (strada_plugin_instance *)self;
}

/* Copies the string value of "key" out of a flat JSON text (test-grade scanner: no escapes in values). */
static int json_string(strada_string json, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    char text[4096];
    size_t n = json.length < sizeof text - 1 ? (size_t)json.length : sizeof text - 1;
    memcpy(text, json.data, n);
    text[n] = 0;
    char *start = strstr(text, pattern);
    if (!start) return 0;
    start += strlen(pattern);
    char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = 0;
    return 1;
}

static strada_string str(const char *text) {
    strada_string s = {text, strlen(text)};
    return s;
}

static void receive(strada_plugin_instance *plugin_instance, strada_string json) {
    instance *self = (instance *)plugin_instance;
    char event[32];
    if (!json_string(json, "event", event, sizeof event) || strcmp(event, "connect") != 0) return;
    if (!json_string(json, "id", self->connect_id, sizeof self->connect_id)) return;
    strada_button_v1 button;
    memset(&button, 0, sizeof button);
    button.struct_size = sizeof button;
    button.placement = STRADA_PLACEMENT_END;
    button.id = str("go");
    button.title = str(VERSION);
    button.icon_name = str("");
    button.enabled = 1;
    the_host->set_button(the_host, self->host_instance, &button);
}

/* Replies through reply_to_event: the host knows the connect message's id, no JSON to write but the data. */
static void control_activated(strada_plugin_instance *plugin_instance, strada_string control_id) {
    (void)control_id;
    instance *self = (instance *)plugin_instance;
    the_host->reply_to_event(the_host, self->host_instance, str("connect"), str("{\"version\":\"" VERSION "\"}"));
}

/* Both log, so tests can see the ABI's order: every instance destroyed before its plugin's shutdown. */
static void destroy(strada_plugin_instance *plugin_instance) {
    the_host->log(the_host, STRADA_LOG_INFO, str("hot " VERSION ": destroy_instance"));
    free(plugin_instance);
}

static void shutdown(void *plugin_context) {
    (void)plugin_context;
    the_host->log(the_host, STRADA_LOG_INFO, str("hot " VERSION ": shutdown"));
}

static const char *names[] = {"hot"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.hot", VERSION, names, 0,
    create, receive, 0, control_activated, destroy, shutdown, 0};

static int loads;  /* static state: a fresh image starts at 0 */

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    the_host = host;
    loads += 1;
    host->log(host, STRADA_LOG_INFO, str(loads == 1 ? "hot " VERSION ": entry, fresh image" : "hot " VERSION ": entry again"));
    *out_plugin = &plugin;
    return STRADA_OK;
}
