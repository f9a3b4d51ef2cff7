/* The app's window chrome: the web view's context menu fit for an app, the inspector, the shortcuts window. */
#pragma once

/* The context menu: for each WebKit item, its stock action (separators: WEBKIT_CONTEXT_MENU_ACTION_NO_ACTION)
   goes to `decide(actions, count, link, keep, data)`, which fills `keep[i]` and returns whether to put
   "Open Link in Browser" (for `link`, non-NULL when the pointer is on a link) first; the items not kept are
   removed and the menu is shown. The added item calls `open(link, data)`. `dismissed(data)` when the menu
   closes. `data` must outlive the web view. */
typedef gboolean (*strada_context_menu_decide)(const int *actions, guint count, const char *link, gboolean *keep,
                                               void *data);
typedef void (*strada_context_menu_open)(const char *link, void *data);
typedef void (*strada_context_menu_dismissed)(void *data);
typedef struct {
    strada_context_menu_decide decide;
    strada_context_menu_open open;
    strada_context_menu_dismissed dismissed;
    void *data;
} strada_context_menu_handlers;

static void strada_context_menu_activated(GSimpleAction *action, GVariant *parameter, gpointer data) {
    (void)action;
    strada_context_menu_handlers *handlers = data;
    if (parameter) handlers->open(g_variant_get_string(parameter, NULL), handlers->data);
}

static gboolean strada_on_context_menu(WebKitWebView *view, WebKitContextMenu *menu, WebKitHitTestResult *hit,
                                       gpointer data) {
    (void)view;
    strada_context_menu_handlers *handlers = data;
    guint count = webkit_context_menu_get_n_items(menu);
    int *actions = g_new0(int, count + 1);
    gboolean *keep = g_new0(gboolean, count + 1);
    for (guint i = 0; i < count; i++) {
        WebKitContextMenuItem *item = webkit_context_menu_get_item_at_position(menu, i);
        actions[i] = webkit_context_menu_item_is_separator(item) ? WEBKIT_CONTEXT_MENU_ACTION_NO_ACTION
                                                                  : (int)webkit_context_menu_item_get_stock_action(item);
    }
    const char *link = hit && webkit_hit_test_result_context_is_link(hit) ? webkit_hit_test_result_get_link_uri(hit)
                                                                          : NULL;
    gboolean add = handlers->decide(actions, count, link, keep, handlers->data);
    for (guint i = count; i > 0; i--) {
        if (!keep[i - 1]) webkit_context_menu_remove(menu, webkit_context_menu_get_item_at_position(menu, i - 1));
    }
    if (add && link) {
        if (webkit_context_menu_get_n_items(menu) > 0) {
            webkit_context_menu_prepend(menu, webkit_context_menu_item_new_separator());
        }
        GSimpleAction *action = g_simple_action_new("open-link-in-browser", G_VARIANT_TYPE_STRING);
        g_signal_connect(action, "activate", G_CALLBACK(strada_context_menu_activated), handlers);
        webkit_context_menu_prepend(menu, webkit_context_menu_item_new_from_gaction(
                                              G_ACTION(action), "Open Link in _Browser", g_variant_new_string(link)));
        g_object_unref(action);
    }
    g_free(actions);
    g_free(keep);
    return FALSE;
}

static void strada_on_context_menu_dismissed(WebKitWebView *view, gpointer data) {
    (void)view;
    strada_context_menu_handlers *handlers = data;
    handlers->dismissed(handlers->data);
}

static inline void strada_connect_context_menu(WebKitWebView *view, strada_context_menu_decide decide,
                                               strada_context_menu_open open,
                                               strada_context_menu_dismissed dismissed, void *data) {
    strada_context_menu_handlers *handlers = g_new0(strada_context_menu_handlers, 1);
    handlers->decide = decide;
    handlers->open = open;
    handlers->dismissed = dismissed;
    handlers->data = data;
    g_signal_connect_data(view, "context-menu", G_CALLBACK(strada_on_context_menu), handlers,
                          (GClosureNotify)(void (*)(void))g_free, 0);
    g_signal_connect(view, "context-menu-dismissed", G_CALLBACK(strada_on_context_menu_dismissed), handlers);
}

/* Developer mode: WebKit's inspector (enable-developer-extras); `show` opens it for the page. */
static inline void strada_set_developer_extras(WebKitWebView *view, gboolean enabled) {
    webkit_settings_set_enable_developer_extras(webkit_web_view_get_settings(view), enabled);
}
static inline void strada_show_inspector(WebKitWebView *view) {
    webkit_web_inspector_show(webkit_web_view_get_inspector(view));
}
/* `shown(TRUE, data)` when the inspector opens (docked in the window, "attach", or in a window of its own,
   "open-window"), `shown(FALSE, data)` when it closes. */
typedef void (*strada_inspector_shown)(gboolean shown, void *data);
typedef struct { strada_inspector_shown shown; void *data; } strada_inspector_handlers;
static gboolean strada_on_inspector_opened(WebKitWebInspector *inspector, gpointer data) {
    (void)inspector;
    strada_inspector_handlers *handlers = data;
    handlers->shown(TRUE, handlers->data);
    return FALSE; /* WebKit shows it */
}
static void strada_on_inspector_closed(WebKitWebInspector *inspector, gpointer data) {
    (void)inspector;
    strada_inspector_handlers *handlers = data;
    handlers->shown(FALSE, handlers->data);
}
static inline void strada_connect_inspector(WebKitWebView *view, strada_inspector_shown shown, void *data) {
    WebKitWebInspector *inspector = webkit_web_view_get_inspector(view);
    strada_inspector_handlers *handlers = g_new0(strada_inspector_handlers, 1);
    handlers->shown = shown;
    handlers->data = data;
    g_signal_connect(inspector, "attach", G_CALLBACK(strada_on_inspector_opened), handlers);
    g_signal_connect(inspector, "open-window", G_CALLBACK(strada_on_inspector_opened), handlers);
    g_signal_connect_data(inspector, "closed", G_CALLBACK(strada_on_inspector_closed), handlers,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}

/* The shortcuts window built from GtkBuilder XML (its object "shortcuts"), transient for `parent`; NULL when
   the XML does not build. The caller owns the returned window (gtk_window_destroy). */
static inline GtkWidget *strada_shortcuts_window_new(const char *xml, GtkWidget *parent) {
    GtkBuilder *builder = gtk_builder_new();
    GError *error = NULL;
    GtkWidget *window = NULL;
    if (gtk_builder_add_from_string(builder, xml, -1, &error)) {
        window = GTK_WIDGET(gtk_builder_get_object(builder, "shortcuts"));
        gtk_window_set_transient_for(GTK_WINDOW(window), GTK_WINDOW(parent));
    } else {
        g_warning("the shortcuts window does not build: %s", error->message);
        g_error_free(error);
    }
    g_object_unref(builder);
    return window;
}

/* A GtkMenuButton's popover is a GtkPopoverMenu built from `model`, its actions `group` under `prefix`. */
static inline GtkWidget *strada_primary_menu_button_new(GMenuModel *model, GtkWidget *window, const char *prefix,
                                                        GActionGroup *group) {
    GtkWidget *button = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(button), "open-menu-symbolic");
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(button), model);
    gtk_menu_button_set_primary(GTK_MENU_BUTTON(button), TRUE);
    gtk_widget_set_tooltip_text(button, "Main Menu");
    gtk_widget_insert_action_group(window, prefix, group);
    return button;
}
static inline GtkMenuButton *strada_gtk_menu_button(GtkWidget *widget) { return GTK_MENU_BUTTON(widget); }
static inline AdwAboutWindow *strada_adw_about_window(GtkWidget *widget) { return ADW_ABOUT_WINDOW(widget); }
