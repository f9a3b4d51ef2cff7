/*
 * counter.c — a Strada component plugin in plain C11, built against the SDK's C headers only:
 * strada_plugin.h (the ABI) and strada_json.h (reading and writing the JSON messages).
 *
 * Component "counter":
 *   web → native  connect {title?}   show a header-bar button (id "count", label `title` or "Count")
 *   web → native  disconnect         remove the button
 *   button press                     reply to the last connect with {"count": n}, n = 1, 2, 3, …
 *
 * Build: make            (see Makefile; produces libcounter_c.so)
 *
 * Rules this file follows (see strada_plugin.h):
 *  - Every string the host hands us is borrowed: what we keep (the connect message id), we copy.
 *  - Every host function is called on the main thread, from inside a host → plugin call.
 *  - Every host status code is checked; failures are logged through host->log, never fatal.
 *  - Bad input (malformed JSON, missing fields, allocation failure) is logged and ignored.
 */
#include "strada_json.h"
#include "strada_plugin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPONENT_NAME "counter"
#define BUTTON_ID "count"

/* ------------------------------------------------------------------------------------------------
 * The plugin.
 * ---------------------------------------------------------------------------------------------- */

/* The host's table, kept by the entry point; owned by the host and valid until the process exits. */
static const strada_host_api_v1 *host_api;

static strada_string borrowed(const char *text) {
    strada_string s = {text, (uint64_t)strlen(text)};
    return s;
}

static void log_line(strada_log_level level, const char *format, ...) {
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    if (host_api) host_api->log(host_api, level, borrowed(line));
}

static const char *status_name(strada_status status) {
    switch (status) {
    case STRADA_OK: return "ok";
    case STRADA_ERR_INVALID_ARGUMENT: return "invalid argument";
    case STRADA_ERR_NOT_FOUND: return "not found";
    case STRADA_ERR_GONE: return "the page is gone";
    case STRADA_ERR_WRONG_THREAD: return "wrong thread";
    default: return "failed";
    }
}

/* The plugin's handle for one instance: the header leaves this struct for the plugin to define. */
struct strada_plugin_instance {
    strada_host_instance *host_instance;
    char *connect_id; /* id of the last connect message (owned copy), or NULL */
    long count;
};

static strada_plugin_instance *create_instance(void *context, const char *component_name,
                                               strada_host_instance *host_instance) {
    (void)context;
    if (!component_name || strcmp(component_name, COMPONENT_NAME) != 0 || !host_instance) return NULL;
    strada_plugin_instance *instance = calloc(1, sizeof *instance);
    if (!instance) {
        log_line(STRADA_LOG_ERROR, "out of memory creating a %s instance", COMPONENT_NAME);
        return NULL;
    }
    instance->host_instance = host_instance;
    return instance;
}

static void show_button(strada_plugin_instance *instance, const char *title) {
    strada_button_v1 button;
    memset(&button, 0, sizeof button); /* reserved bytes must be zero */
    button.struct_size = sizeof button;
    button.placement = STRADA_PLACEMENT_END;
    button.id = borrowed(BUTTON_ID);
    button.title = borrowed(title);
    button.icon_name = borrowed("");
    button.enabled = 1;
    button.style = STRADA_BUTTON_STYLE_SUGGESTED;
    strada_status status = host_api->set_button(host_api, instance->host_instance, &button);
    if (status != STRADA_OK) log_line(STRADA_LOG_WARNING, "set_button refused: %s (%d)", status_name(status), (int)status);
}

static void handle_connect(strada_plugin_instance *instance, strada_json_span message, const char *id) {
    char *copy = malloc(strlen(id) + 1);
    if (!copy) {
        log_line(STRADA_LOG_ERROR, "out of memory keeping connect #%s", id);
        return;
    }
    strcpy(copy, id);
    free(instance->connect_id);
    instance->connect_id = copy;

    char title[128] = "Count";
    strada_json_span data;
    if (strada_json_find_member(message, "data", &data) &&
        !strada_json_string_member(data, "title", title, sizeof title)) {
        strcpy(title, "Count"); /* absent, not a string, or too long: keep the default */
    }
    if (title[0] == '\0') strcpy(title, "Count");
    show_button(instance, title);
}

static void handle_disconnect(strada_plugin_instance *instance) {
    free(instance->connect_id);
    instance->connect_id = NULL;
    strada_status status = host_api->remove_button(host_api, instance->host_instance, borrowed(BUTTON_ID));
    if (status != STRADA_OK && status != STRADA_ERR_GONE) {
        log_line(STRADA_LOG_WARNING, "remove_button refused: %s (%d)", status_name(status), (int)status);
    }
}

static void receive(strada_plugin_instance *instance, strada_string message_json) {
    if (!instance || !message_json.data) return;
    strada_json_span message = {message_json.data, message_json.data + message_json.length};
    char id[64], event[64];
    if (!strada_json_is_valid(message)) {
        log_line(STRADA_LOG_WARNING, "ignored a message that is not valid JSON");
        return;
    }
    if (!strada_json_string_member(message, "id", id, sizeof id) ||
        !strada_json_string_member(message, "event", event, sizeof event)) {
        log_line(STRADA_LOG_WARNING, "ignored a message without a readable id and event");
        return;
    }
    if (strcmp(event, "connect") == 0) handle_connect(instance, message, id);
    else if (strcmp(event, "disconnect") == 0) handle_disconnect(instance);
    else log_line(STRADA_LOG_DEBUG, "ignored event \"%s\" (#%s)", event, id);
}

/* Replies to the last connect with {"count": n}. */
static void send_count(strada_plugin_instance *instance) {
    char reply[512], number[32]; /* the id is at most 63 bytes, 378 escaped: the reply always fits */
    strada_json_writer json = {reply, sizeof reply, 0};
    snprintf(number, sizeof number, "%ld", instance->count);
    strada_json_write_raw(&json, "{\"id\":");
    strada_json_write_string(&json, instance->connect_id);
    strada_json_write_raw(&json, ",\"component\":");
    strada_json_write_string(&json, COMPONENT_NAME);
    strada_json_write_raw(&json, ",\"event\":\"connect\",\"data\":{\"count\":");
    strada_json_write_raw(&json, number);
    strada_json_write_raw(&json, "}}");
    if (!strada_json_writer_ok(&json)) {
        log_line(STRADA_LOG_ERROR, "the reply does not fit its buffer");
        return;
    }
    strada_string text = {reply, (uint64_t)json.length};
    strada_status status = host_api->reply(host_api, instance->host_instance, text);
    if (status == STRADA_ERR_GONE) log_line(STRADA_LOG_INFO, "count %ld not sent: the page is gone", instance->count);
    else if (status != STRADA_OK) {
        log_line(STRADA_LOG_ERROR, "reply refused: %s (%d)", status_name(status), (int)status);
    }
}

static void control_activated(strada_plugin_instance *instance, strada_string control_id) {
    if (!instance || !control_id.data || control_id.length != strlen(BUTTON_ID) ||
        memcmp(control_id.data, BUTTON_ID, control_id.length) != 0) {
        return;
    }
    if (!instance->connect_id) {
        log_line(STRADA_LOG_WARNING, "button pressed before any connect message; nothing to reply to");
        return;
    }
    instance->count++;
    send_count(instance);
}

static void destroy_instance(strada_plugin_instance *instance) {
    if (!instance) return;
    free(instance->connect_id);
    free(instance);
}

static const char *const component_names[] = {COMPONENT_NAME};

static const strada_plugin_v1 plugin = {
    .struct_size = sizeof(strada_plugin_v1),
    .abi_major = STRADA_PLUGIN_ABI_MAJOR,
    .abi_minor = STRADA_PLUGIN_ABI_MINOR,
    .component_count = 1,
    .plugin_id = "dev.example.counter-c",
    .plugin_version = "1.0.0",
    .component_names = component_names,
    .plugin_context = NULL,
    .create_instance = create_instance,
    .receive = receive,
    .lifecycle = NULL,
    .control_activated = control_activated,
    .destroy_instance = destroy_instance,
    .shutdown = NULL, /* no threads, nothing global to release */
    .get_extension = NULL,
};

/* The host table must reach at least up to remove_button, the last function this plugin calls. */
#define HOST_FIELDS_USED (offsetof(strada_host_api_v1, remove_button) + sizeof(((strada_host_api_v1 *)0)->remove_button))

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    if (!host || !out_plugin) return STRADA_ERR_INVALID_ARGUMENT;
    if (host->abi_major != STRADA_PLUGIN_ABI_MAJOR || host->struct_size < HOST_FIELDS_USED || !host->log ||
        !host->reply || !host->set_button || !host->remove_button) {
        return STRADA_ERR_INVALID_ARGUMENT; /* cannot even log safely */
    }
    host_api = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
