// The app on the session bus: an AdwApplication with the app's id, registered without g_application_run
// (the host runs its own main loop). The first instance of an id is primary; a later one is remote and
// hands its URL to the primary (the "visit" action) or asks it to show itself ("activate").
#pragma once

typedef void (*strada_application_visit)(const char *url, void *data);
typedef void (*strada_application_activate)(void *data);

typedef struct {
    strada_application_visit visit;
    strada_application_activate activate;
    void *data;
} strada_application_handlers;

static void strada_application_on_visit(GSimpleAction *action, GVariant *parameter, gpointer user_data) {
    (void)action;
    strada_application_handlers *handlers = user_data;
    if (parameter && g_variant_is_of_type(parameter, G_VARIANT_TYPE_STRING)) {
        handlers->visit(g_variant_get_string(parameter, NULL), handlers->data);
    }
}

static void strada_application_on_activate(GApplication *application, gpointer user_data) {
    (void)application;
    strada_application_handlers *handlers = user_data;
    handlers->activate(handlers->data);
}

/// A new application for `id` with a "visit" action (a string: the URL) and "activate" wired to the handlers.
static inline GApplication *strada_application_new(
    const char *id, strada_application_visit visit, strada_application_activate activate, void *data) {
    GApplication *application = G_APPLICATION(adw_application_new(id, G_APPLICATION_FLAGS_NONE));
    strada_application_handlers *handlers = g_new0(strada_application_handlers, 1);
    handlers->visit = visit;
    handlers->activate = activate;
    handlers->data = data;
    GSimpleAction *action = g_simple_action_new("visit", G_VARIANT_TYPE_STRING);
    g_signal_connect_data(action, "activate", G_CALLBACK(strada_application_on_visit), handlers, NULL, 0);
    g_action_map_add_action(G_ACTION_MAP(application), G_ACTION(action));
    g_object_unref(action);
    g_signal_connect_data(application, "activate", G_CALLBACK(strada_application_on_activate), handlers,
                          (GClosureNotify)(void (*)(void))g_free, 0);
    return application;
}

/// Registers on the session bus: 0 primary (or no bus: on its own), 1 another instance has the id, -1 failed
/// (`*message` says why; free it with g_free).
static inline int strada_application_register(GApplication *application, char **message) {
    GError *error = NULL;
    if (!g_application_register(application, NULL, &error)) {
        *message = g_strdup(error ? error->message : "registration failed");
        if (error) g_error_free(error);
        return -1;
    }
    return g_application_get_is_remote(application) ? 1 : 0;
}

/// From a remote instance: asks the primary to visit `url` (NULL: just to show itself), and waits until the
/// request has left.
static inline void strada_application_forward(GApplication *application, const char *url) {
    if (url) {
        g_action_group_activate_action(G_ACTION_GROUP(application), "visit", g_variant_new_string(url));
    } else {
        g_application_activate(application);
    }
    GDBusConnection *connection = g_application_get_dbus_connection(application);
    if (connection) g_dbus_connection_flush_sync(connection, NULL, NULL);
}

static inline void strada_application_add_window(GApplication *application, GtkWidget *window) {
    gtk_window_set_application(GTK_WINDOW(window), GTK_APPLICATION(application));
}

// A desktop notification from the app (GNotification), when it is on a session bus; FALSE without one.
static inline gboolean strada_application_notify(GApplication *application, const char *title, const char *body) {
    if (!g_application_get_dbus_connection(application)) return FALSE;
    GNotification *notification = g_notification_new(title);
    if (body && *body) g_notification_set_body(notification, body);
    g_application_send_notification(application, NULL, notification);
    g_object_unref(notification);
    return TRUE;
}
