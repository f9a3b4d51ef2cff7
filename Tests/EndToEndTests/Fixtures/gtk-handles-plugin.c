/* A test plugin using the raw GTK handles extension: on "connect" it reads the window's title through GTK
   and replies {"windowTitle": …, "hasWebView": true|false}. GTK's symbols come from the host process. */
#include <stdio.h>
#include <string.h>
#include "strada_controls.h"

extern const char *gtk_window_get_title(void *window);

static const strada_host_api_v1 *the_host;

static strada_string str(const char *text) {
    strada_string s = {text, strlen(text)};
    return s;
}

static strada_plugin_instance *create(void *context, const char *name, strada_host_instance *host_instance) {
    (void)context; (void)name;
    return (strada_plugin_instance *)host_instance;
}

static void receive(strada_plugin_instance *instance, strada_string json) {
    (void)json;
    const strada_gtk_handles_v1 *gtk = the_host->get_extension(the_host, STRADA_GTK_HANDLES_EXTENSION_V1);
    char data[256];
    if (!gtk) {
        snprintf(data, sizeof data, "{\"error\":\"no gtk handles\"}");
    } else {
        const char *title = gtk_window_get_title(gtk->window(the_host));
        snprintf(data, sizeof data, "{\"windowTitle\":\"%s\",\"hasWebView\":%s}", title ? title : "", gtk->web_view(the_host) ? "true" : "false");
    }
    the_host->reply_to_event(the_host, (strada_host_instance *)instance, str("connect"), str(data));
}

static void destroy(strada_plugin_instance *instance) { (void)instance; }

static const char *names[] = {"gtk"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.gtk", "1.0.0", names, 0,
    create, receive, 0, 0, destroy, 0, 0};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    the_host = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
