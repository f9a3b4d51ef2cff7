/*
 * The `hello-world` Strada component plugin.
 *
 * Web → native: connect {name}     reply to it with {"greeting": "Hello, <name>!", "presses": 0} (reply) and
 *                                  show a header-bar button "Greet" (set_button)
 *               disconnect         remove the button (remove_button)
 * Button press (control_activated) reply to the connect again, {"greeting": …, "presses": n} (reply_to_event)
 *
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

#define COMPONENT_NAME "hello-world"
#define GREET_BUTTON "greet" /* shown page-wide as "hello-world.greet" (--trace, automation) */

static const strada_host_api_v1 *host_api; /* the host's table, valid until the process exits */

static strada_string borrowed(const char *text) {
    strada_string string = {text, strlen(text)};
    return string;
}

static void log_text(strada_log_level level, const char *text) {
    host_api->log(host_api, level, borrowed(text));
}

/* The plugin defines what its instance handle points to. */
struct strada_plugin_instance {
    strada_host_instance *host_instance;
    char name[128]; /* who to greet: our own copy of the connect's data.name */
    long presses;
};

static strada_plugin_instance *create_instance(void *context, const char *component,
                                               strada_host_instance *host_instance) {
    (void)context;
    (void)component;
    strada_plugin_instance *instance = calloc(1, sizeof *instance);
    if (instance) instance->host_instance = host_instance;
    return instance; /* NULL: the host logs it and drops the message */
}

/* {"greeting":"Hello, <name>!","presses":<n>} into `out`; false when it does not fit. */
static int write_greeting(const strada_plugin_instance *instance, strada_json_writer *out) {
    char greeting[160], presses[32];
    snprintf(greeting, sizeof greeting, "Hello, %s!", instance->name);
    snprintf(presses, sizeof presses, "%ld", instance->presses);
    strada_json_write_raw(out, "{\"greeting\":");
    strada_json_write_string(out, greeting);
    strada_json_write_raw(out, ",\"presses\":");
    strada_json_write_raw(out, presses);
    strada_json_write_raw(out, "}");
    return strada_json_writer_ok(out);
}

static void show_greet_button(strada_plugin_instance *instance) {
    strada_button_v1 button;
    memset(&button, 0, sizeof button); /* reserved bytes must be zero */
    button.struct_size = sizeof button;
    button.placement = STRADA_PLACEMENT_END;
    button.id = borrowed(GREET_BUTTON);
    button.title = borrowed("Greet");
    button.icon_name = borrowed("");
    button.enabled = 1;
    button.style = STRADA_BUTTON_STYLE_SUGGESTED;
    if (host_api->set_button(host_api, instance->host_instance, &button) != STRADA_OK) {
        log_text(STRADA_LOG_WARNING, "the host did not show the Greet button (page gone?)");
    }
}

/* connect: a reply with `reply`, a whole wire message with the connect's id, then the button. */
static void handle_connect(strada_plugin_instance *instance, strada_json_span message, const char *id) {
    strada_json_span data;
    if (!strada_json_find_member(message, "data", &data) ||
        !strada_json_string_member(data, "name", instance->name, sizeof instance->name)) {
        strcpy(instance->name, "stranger");
    }
    instance->presses = 0;
    char reply[512];
    strada_json_writer out = {reply, sizeof reply, 0};
    strada_json_write_raw(&out, "{\"id\":");
    strada_json_write_string(&out, id);
    strada_json_write_raw(&out, ",\"component\":\"" COMPONENT_NAME "\",\"event\":\"connect\",\"data\":");
    int fits = write_greeting(instance, &out);
    strada_json_write_raw(&out, "}");
    if (!fits || !strada_json_writer_ok(&out)) {
        log_text(STRADA_LOG_ERROR, "the reply does not fit its buffer");
        return;
    }
    strada_string text = {reply, out.length};
    if (host_api->reply(host_api, instance->host_instance, text) != STRADA_OK) {
        log_text(STRADA_LOG_WARNING, "the host did not accept the reply (page gone?)");
    }
    show_greet_button(instance);
}

static void receive(strada_plugin_instance *instance, strada_string message_json) {
    if (!instance || !message_json.data) return;
    strada_json_span message = {message_json.data, message_json.data + message_json.length};
    char id[64], event[64];
    if (!strada_json_is_valid(message) || !strada_json_string_member(message, "id", id, sizeof id) ||
        !strada_json_string_member(message, "event", event, sizeof event)) {
        log_text(STRADA_LOG_WARNING, "ignored a malformed message");
        return;
    }
    if (strcmp(event, "connect") == 0) {
        handle_connect(instance, message, id);
    } else if (strcmp(event, "disconnect") == 0) {
        if (host_api->remove_button(host_api, instance->host_instance, borrowed(GREET_BUTTON)) != STRADA_OK) {
            log_text(STRADA_LOG_WARNING, "the host did not remove the Greet button (page gone?)");
        }
    }
}

/* The Greet button was pressed: answer the last connect again, without keeping its id (reply_to_event). */
static void control_activated(strada_plugin_instance *instance, strada_string control_id) {
    if (!instance || control_id.length != strlen(GREET_BUTTON) ||
        memcmp(control_id.data, GREET_BUTTON, control_id.length) != 0) {
        return;
    }
    instance->presses++;
    char data[256];
    strada_json_writer out = {data, sizeof data, 0};
    if (!write_greeting(instance, &out)) {
        log_text(STRADA_LOG_ERROR, "the reply does not fit its buffer");
        return;
    }
    strada_string text = {data, out.length};
    strada_status status = host_api->reply_to_event(host_api, instance->host_instance, borrowed("connect"), text);
    if (status == STRADA_ERR_NOT_FOUND) log_text(STRADA_LOG_WARNING, "Greet pressed before any connect");
    else if (status != STRADA_OK) log_text(STRADA_LOG_WARNING, "the host did not accept the reply (page gone?)");
}

static void destroy_instance(strada_plugin_instance *instance) {
    free(instance); /* the host has already removed the instance's button */
}

static const char *const component_names[] = {COMPONENT_NAME};

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
    .control_activated = control_activated,
    .destroy_instance = destroy_instance,
    /* lifecycle, shutdown, get_extension: optional, NULL here */
};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    /* ABI 1.0's table has every function this plugin calls (reply … reply_to_event). */
    if (!host || !out_plugin || host->abi_major != STRADA_PLUGIN_ABI_MAJOR ||
        host->struct_size < STRADA_HOST_API_V1_MIN_SIZE_1_0) {
        return STRADA_ERR_INVALID_ARGUMENT;
    }
    host_api = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
