/*
 * settings.c — a plugin that provides a native screen: a libadwaita preferences page shown for the URLs a
 * path configuration rule names with "view_controller": "settings" (extension "dev.strada.screens/1",
 * strada_screens.h). Plain C11 against the SDK headers and libadwaita.
 *
 *   rule:       {"patterns": ["/settings$"], "properties": {"view_controller": "settings", "title": "Settings"}}
 *   the screen: "Dark Style" (a switch for the app's colour scheme) and what the screen was opened for (the
 *               URL, the rule's title), in the host's window under its header bar, with Back.
 *
 * A plugin has at least one component: "settings" answers "connect" with the colour scheme in use, so a page
 * can show what the native screen chose.
 *
 * Build: make   (see Makefile; produces libsettings_screen.so). Screens are widgets in the host's process: the
 * host does not show them for a plugin run with --isolate.
 */
#include "strada_json.h"
#include "strada_plugin.h"
#include "strada_screens.h"

#include <adwaita.h>
#include <stdio.h>
#include <string.h>

static const strada_host_api_v1 *host_api;

static strada_string borrowed(const char *text) {
    strada_string s = {text, (uint64_t)strlen(text)};
    return s;
}

static void say(strada_log_level level, const char *format, const char *detail) {
    char line[2200];
    snprintf(line, sizeof line, format, detail);
    host_api->log(host_api, level, borrowed(line));
}

/* ---- The native screen ------------------------------------------------------------------------------- */

static void dark_style_toggled(GObject *toggle, GParamSpec *spec, gpointer data) {
    (void)spec;
    (void)data;
    gboolean dark = gtk_switch_get_active(GTK_SWITCH(toggle));
    adw_style_manager_set_color_scheme(adw_style_manager_get_default(),
                                       dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_DEFAULT);
    say(STRADA_LOG_INFO, "dark style %s", dark ? "on" : "off");
}

static GtkWidget *row(const char *title, const char *subtitle) {
    GtkWidget *row = adw_action_row_new();
    adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), title);
    adw_action_row_set_subtitle(ADW_ACTION_ROW(row), subtitle);
    return row;
}

static void *create_screen(void *context, const char *name, strada_string url, strada_string properties) {
    (void)context;
    char address[2048];
    snprintf(address, sizeof address, "%.*s", (int)(url.length < 2047 ? url.length : 2047), url.data);
    char title[256] = "Settings";
    strada_json_span object = {properties.data, properties.data + properties.length};
    if (properties.length > 0 && !strada_json_string_member(object, "title", title, sizeof title)) {
        snprintf(title, sizeof title, "Settings");
    }

    GtkWidget *page = adw_preferences_page_new();
    adw_preferences_page_set_title(ADW_PREFERENCES_PAGE(page), title);

    GtkWidget *appearance = adw_preferences_group_new();
    adw_preferences_group_set_title(ADW_PREFERENCES_GROUP(appearance), "Appearance");
    GtkWidget *dark = row("Dark Style", "Use the dark colour scheme in this app");
    GtkWidget *toggle = gtk_switch_new();
    gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER);
    gtk_switch_set_active(GTK_SWITCH(toggle), adw_style_manager_get_dark(adw_style_manager_get_default()));
    g_signal_connect(toggle, "notify::active", G_CALLBACK(dark_style_toggled), NULL);
    adw_action_row_add_suffix(ADW_ACTION_ROW(dark), toggle);
    adw_action_row_set_activatable_widget(ADW_ACTION_ROW(dark), toggle);
    adw_preferences_group_add(ADW_PREFERENCES_GROUP(appearance), dark);
    adw_preferences_page_add(ADW_PREFERENCES_PAGE(page), ADW_PREFERENCES_GROUP(appearance));

    GtkWidget *about = adw_preferences_group_new();
    adw_preferences_group_set_title(ADW_PREFERENCES_GROUP(about), "This Screen");
    adw_preferences_group_set_description(ADW_PREFERENCES_GROUP(about),
                                          "A native screen from a plugin, chosen by the path configuration.");
    adw_preferences_group_add(ADW_PREFERENCES_GROUP(about), row("Address", address));
    adw_preferences_group_add(ADW_PREFERENCES_GROUP(about), row("Title", title));
    adw_preferences_page_add(ADW_PREFERENCES_PAGE(page), ADW_PREFERENCES_GROUP(about));

    say(STRADA_LOG_INFO, "settings screen built for %s", address);
    (void)name; /* the one screen this plugin provides */
    return page;  /* floating: the host sinks it */
}

static void destroy_screen(void *context, void *widget) {
    (void)context;
    (void)widget;
    say(STRADA_LOG_INFO, "settings screen %s", "destroyed");
}

static const char *const screen_names[] = {"settings"};
static const strada_screens_v1 screens = {
    sizeof(strada_screens_v1), 1, screen_names, create_screen, destroy_screen,
};

/* ---- The "settings" component ------------------------------------------------------------------------ */

static strada_plugin_instance *create_instance(void *context, const char *name, strada_host_instance *instance) {
    (void)context;
    (void)name;
    return (strada_plugin_instance *)instance;
}

static void receive(strada_plugin_instance *instance, strada_string message) {
    strada_json_span object = {message.data, message.data + message.length};
    char event[32];
    if (!strada_json_string_member(object, "event", event, sizeof event) || strcmp(event, "connect") != 0) return;
    const char *data = adw_style_manager_get_dark(adw_style_manager_get_default()) ? "{\"colorScheme\":\"dark\"}"
                                                                                    : "{\"colorScheme\":\"light\"}";
    strada_status status =
        host_api->reply_to_event(host_api, (strada_host_instance *)instance, borrowed("connect"), borrowed(data));
    if (status != STRADA_OK) say(STRADA_LOG_WARNING, "the reply to connect failed (%s)", "status not OK");
}

static void destroy_instance(strada_plugin_instance *instance) { (void)instance; }

static const void *get_extension(void *context, const char *id) {
    (void)context;
    return strcmp(id, STRADA_SCREENS_EXTENSION_V1) == 0 ? &screens : NULL;
}

static const char *const component_names[] = {"settings"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1),
    STRADA_PLUGIN_ABI_MAJOR,
    STRADA_PLUGIN_ABI_MINOR,
    1,
    "dev.strada.example.settings",
    "1.0.0",
    component_names,
    NULL,
    create_instance,
    receive,
    NULL,
    NULL,
    destroy_instance,
    NULL,
    get_extension,
};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    if (host->abi_major != STRADA_PLUGIN_ABI_MAJOR || host->struct_size < STRADA_HOST_API_V1_MIN_SIZE_1_0 ||
        !host->log || !host->reply_to_event)
        return STRADA_ERR_FAILED;
    host_api = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
