/*
 * The `hello-world` Strada component plugin.
 *
 * Web → native: connect {name}. Native → web: a reply to that connect with {"greeting": "Hello, <name>!"}.
 * strada_json.h (from the SDK, like strada_plugin.h) reads the message and writes the reply.
 *
 * Rules (strada_plugin.h): strings from the host are borrowed — copy what you keep; call host
 * functions on the main thread only (every plugin function below runs there); check every status.
 */
#include "strada_json.h"
#include "strada_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const strada_host_api_v1 *host_api; /* the host's table, valid until the process exits */

static void log_text(strada_log_level level, const char *text) {
    strada_string line = {text, strlen(text)};
    host_api->log(host_api, level, line);
}

/* The plugin defines what its instance handle points to. */
struct strada_plugin_instance {
    strada_host_instance *host_instance;
};

static strada_plugin_instance *create_instance(void *context, const char *component,
                                               strada_host_instance *host_instance) {
    (void)context;
    (void)component;
    strada_plugin_instance *instance = calloc(1, sizeof *instance);
    if (instance) instance->host_instance = host_instance;
    return instance; /* NULL: the host logs it and drops the message */
}

static void receive(strada_plugin_instance *instance, strada_string message_json) {
    if (!instance || !message_json.data) return;
    strada_json_span message = {message_json.data, message_json.data + message_json.length};
    char id[64], event[64], name[128] = "stranger";
    if (!strada_json_is_valid(message) || !strada_json_string_member(message, "id", id, sizeof id) ||
        !strada_json_string_member(message, "event", event, sizeof event)) {
        log_text(STRADA_LOG_WARNING, "ignored a malformed message");
        return;
    }
    if (strcmp(event, "connect") != 0) return;

    strada_json_span data;
    if (strada_json_find_member(message, "data", &data) &&
        !strada_json_string_member(data, "name", name, sizeof name)) {
        strcpy(name, "stranger");
    }
    char greeting[160], reply[512];
    snprintf(greeting, sizeof greeting, "Hello, %s!", name);
    strada_json_writer out = {reply, sizeof reply, 0};
    strada_json_write_raw(&out, "{\"id\":");
    strada_json_write_string(&out, id);
    strada_json_write_raw(&out, ",\"component\":\"hello-world\",\"event\":\"connect\",\"data\":{\"greeting\":");
    strada_json_write_string(&out, greeting);
    strada_json_write_raw(&out, "}}");
    if (!strada_json_writer_ok(&out)) {
        log_text(STRADA_LOG_ERROR, "the reply does not fit its buffer");
        return;
    }
    strada_string text = {reply, out.length};
    strada_status status = host_api->reply(host_api, instance->host_instance, text);
    if (status != STRADA_OK) log_text(STRADA_LOG_WARNING, "the host did not accept the reply (page gone?)");
}

static void destroy_instance(strada_plugin_instance *instance) {
    free(instance);
}

static const char *const component_names[] = {"hello-world"};

static const strada_plugin_v1 plugin = {
    .struct_size = sizeof(strada_plugin_v1),
    .abi_major = STRADA_PLUGIN_ABI_MAJOR,
    .abi_minor = STRADA_PLUGIN_ABI_MINOR,
    .component_count = 1,
    .plugin_id = "com.example.hello-world",
    .plugin_version = "0.1.0",
    .component_names = component_names,
    .create_instance = create_instance,
    .receive = receive,
    .destroy_instance = destroy_instance,
    /* lifecycle, control_activated, shutdown, get_extension: optional, NULL here */
};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    if (!host || !out_plugin || host->abi_major != STRADA_PLUGIN_ABI_MAJOR ||
        host->struct_size < offsetof(strada_host_api_v1, codec_settings_json)) {
        return STRADA_ERR_INVALID_ARGUMENT; /* the table must cover reply and log, all we call */
    }
    host_api = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
