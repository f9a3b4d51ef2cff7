/* A test plugin in C for the host API's JSON checks, in process and in a worker alike: component "hot" (hot.html).
   On "connect" it shows a button; pressing it makes three calls with bad JSON — reply_to_event with data that is
   not JSON, reply_to_event with data that is JSON but not an object, show_control with a spec that is not JSON —
   then replies to connect with {"version": "checked <status> <status> <status>"}, so the page's title shows what
   each call returned. Compiled after plugin-support.c. */

#include "strada_controls.h"

static const strada_controls_v1 *controls;

static void receive(strada_plugin_instance *plugin_instance, strada_string json) {
    instance *self = (instance *)plugin_instance;
    char event[32];
    if (!json_string(json, "event", event, sizeof event) || strcmp(event, "connect") != 0) return;
    strada_button_v1 button;
    memset(&button, 0, sizeof button);
    button.struct_size = sizeof button;
    button.placement = STRADA_PLACEMENT_END;
    button.id = str("go");
    button.title = str("check");
    button.icon_name = str("");
    button.enabled = 1;
    the_host->set_button(the_host, self->host_instance, &button);
}

static void control_activated(strada_plugin_instance *plugin_instance, strada_string control_id) {
    (void)control_id;
    instance *self = (instance *)plugin_instance;
    strada_status syntax = the_host->reply_to_event(the_host, self->host_instance, str("connect"), str("[1,2,}"));
    strada_status array = the_host->reply_to_event(the_host, self->host_instance, str("connect"), str("[1,2]"));
    strada_status spec = controls ? controls->show(the_host, self->host_instance, str("bad"), str("{\"kind\":"))
                                  : 99;
    char data[128];
    snprintf(data, sizeof data, "{\"version\":\"checked %d %d %d\"}", (int)syntax, (int)array, (int)spec);
    the_host->reply_to_event(the_host, self->host_instance, str("connect"), str(data));
}

static void destroy(strada_plugin_instance *plugin_instance) { free(plugin_instance); }

static const char *names[] = {"hot"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.json-check", "1.0.0",
    names, 0, create, receive, 0, control_activated, destroy, 0, 0};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    the_host = host;
    controls = (const strada_controls_v1 *)host->get_extension(host, STRADA_CONTROLS_EXTENSION_V1);
    *out_plugin = &plugin;
    return STRADA_OK;
}
