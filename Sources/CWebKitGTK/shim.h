/* The C surface StradaEngineGTK needs from GTK 4 / WebKitGTK 6.0, plus what Swift cannot express. */
#ifndef STRADA_CWEBKITGTK_SHIM_H
#define STRADA_CWEBKITGTK_SHIM_H
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <adwaita.h>
#include <glib-unix.h>

/* libdispatch's main-queue hooks (exported by libdispatch.so on Linux): an eventfd that becomes readable
   when DispatchQueue.main has work, and the function that drains it. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* Start-up with hardware acceleration on (STRADA_WEBKIT_HW_ACCEL=1; off, the UI process loads no GL driver,
   see Display.open): the engine's first web view initialises EGL on the main thread (WebKit's display for the
   web process's frames), and the GL driver it loads is the biggest single cost of the start (Mesa's driver and
   LLVM; the figure is in docs/engine.md, "Figures behind comments"). This loads and initialises the same
   driver on a thread of its own, on the surfaceless platform (no display connection, so it cannot race
   GTK's), while the main thread opens the display and loads the plugins; WebKit then finds it loaded. The
   display is kept (its driver stays loaded). Where the driver has no surfaceless platform, nothing happens.
   Once per process. */
#include <dlfcn.h>
static gpointer strada_egl_warm_up_thread(gpointer unused) {
    (void)unused;
    typedef void *(*get_platform_display)(unsigned platform, void *native, const intptr_t *attributes);
    typedef unsigned (*initialize)(void *display, int *major, int *minor);
    void *egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!egl) return NULL;
    get_platform_display get = (get_platform_display)dlsym(egl, "eglGetPlatformDisplay");
    initialize init = (initialize)dlsym(egl, "eglInitialize");
    if (!get || !init) return NULL;
    void *display = get(0x31DD /* EGL_PLATFORM_SURFACELESS_MESA */, NULL, NULL);
    int major = 0, minor = 0;
    if (display) init(display, &major, &minor);
    return NULL;
}
static inline void strada_egl_warm_up(void) {
    static gsize started = 0;
    if (g_once_init_enter(&started)) {
        g_thread_unref(g_thread_new("strada-egl-warm", strada_egl_warm_up_thread, NULL));
        g_once_init_leave(&started, 1);
    }
}

/* g_object_new is variadic: construct-only properties need a C helper. */
static inline GtkWidget *strada_web_view_new(WebKitUserContentManager *ucm, WebKitNetworkSession *session) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "user-content-manager", ucm, "network-session", session, NULL));
}

static inline GtkWindow *strada_gtk_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkButton *strada_gtk_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkHeaderBar *strada_gtk_header_bar(GtkWidget *widget) { return GTK_HEADER_BAR(widget); }
static inline WebKitWebView *strada_webkit_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }
static inline GtkPopover *strada_gtk_popover(GtkWidget *widget) { return GTK_POPOVER(widget); }
static inline GtkBox *strada_gtk_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkSearchBar *strada_gtk_search_bar(GtkWidget *widget) { return GTK_SEARCH_BAR(widget); }
static inline GtkSearchEntry *strada_gtk_search_entry(GtkWidget *widget) { return GTK_SEARCH_ENTRY(widget); }
static inline GtkEditable *strada_gtk_editable(GtkWidget *widget) { return GTK_EDITABLE(widget); }
static inline AdwHeaderBar *strada_adw_header_bar(GtkWidget *widget) { return ADW_HEADER_BAR(widget); }
static inline AdwWindowTitle *strada_adw_window_title(GtkWidget *widget) { return ADW_WINDOW_TITLE(widget); }
static inline AdwToastOverlay *strada_adw_toast_overlay(GtkWidget *widget) { return ADW_TOAST_OVERLAY(widget); }
static inline AdwMessageDialog *strada_adw_message_dialog(GtkWidget *widget) { return ADW_MESSAGE_DIALOG(widget); }
static inline AdwViewStack *strada_adw_view_stack(GtkWidget *widget) { return ADW_VIEW_STACK(widget); }
static inline AdwViewSwitcherTitle *strada_adw_view_switcher_title(GtkWidget *widget) {
    return ADW_VIEW_SWITCHER_TITLE(widget);
}
static inline AdwViewSwitcherBar *strada_adw_view_switcher_bar(GtkWidget *widget) {
    return ADW_VIEW_SWITCHER_BAR(widget);
}
/* "placeholder-text" of GtkSearchEntry (gtk_search_entry_set_placeholder_text is GTK 4.10+; Debian 12 has 4.8). */
static inline void strada_set_placeholder_text(GtkWidget *widget, const char *text) {
    g_object_set(G_OBJECT(widget), "placeholder-text", text, NULL);
}

/* Keys and a mouse button that act on a window whatever has the focus (Back: Alt+Left and the mouse's back
   button 8; refresh: Ctrl+R, F5; a modal's Escape), caught in the capture phase so the web view does not act
   first. `keys` uses GTK's trigger syntax, alternatives separated by '|' ("<Control>r|F5"); `button` 0 for none.
   `callback(data)` runs for each; `free_data(data)` when the window is finalized. */
typedef void (*strada_trigger_callback)(void *data);
typedef struct { strada_trigger_callback callback; void *data; GDestroyNotify free_data; } strada_trigger;
static gboolean strada_trigger_shortcut(GtkWidget *widget, GVariant *args, gpointer data) {
    (void)widget; (void)args;
    strada_trigger *trigger = data;
    trigger->callback(trigger->data);
    return TRUE;
}
static void strada_trigger_pressed(GtkGestureClick *gesture, int presses, double x, double y, gpointer data) {
    (void)presses; (void)x; (void)y;
    gtk_gesture_set_state(GTK_GESTURE(gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    strada_trigger *trigger = data;
    trigger->callback(trigger->data);
}
static void strada_trigger_free(gpointer data, GObject *window) {
    (void)window;
    strada_trigger *trigger = data;
    if (trigger->free_data) trigger->free_data(trigger->data);
    g_free(trigger);
}
static inline void strada_install_trigger(GtkWidget *window, const char *keys, guint button,
                                          strada_trigger_callback callback, void *data, GDestroyNotify free_data) {
    strada_trigger *trigger = g_new0(strada_trigger, 1);
    trigger->callback = callback;
    trigger->data = data;
    trigger->free_data = free_data;
    g_object_weak_ref(G_OBJECT(window), strada_trigger_free, trigger);
    GtkEventController *shortcuts = gtk_shortcut_controller_new();
    gtk_event_controller_set_propagation_phase(shortcuts, GTK_PHASE_CAPTURE);
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(shortcuts),
                                         gtk_shortcut_new(gtk_shortcut_trigger_parse_string(keys),
                                                          gtk_callback_action_new(strada_trigger_shortcut, trigger,
                                                                                  NULL)));
    gtk_widget_add_controller(window, shortcuts);
    if (button == 0) return;
    GtkGesture *click = gtk_gesture_click_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(click), button);
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(click), GTK_PHASE_CAPTURE);
    g_signal_connect(click, "pressed", G_CALLBACK(strada_trigger_pressed), trigger);
    gtk_widget_add_controller(window, GTK_EVENT_CONTROLLER(click));
}
/* A one-entry a{sv} dictionary {name: <string>} that owns `value` (g_variant_new_take_string: no copy;
 * `value` must come from g_malloc). Floating reference: the call it is passed to sinks it. */
static inline GVariant *strada_string_argument_take(const char *name, char *value) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&builder, "{sv}", name, g_variant_new_take_string(value));
    return g_variant_builder_end(&builder);
}

/* WebDriver (WebKitWebDriver starts the host with WEBKIT_INSPECTOR_SERVER set and asks for an automation session):
   the default web context allows automation, and the one web view is created controlled by automation, on the
   context's network session for automation (construct-only properties). */
static inline WebKitNetworkSession *strada_automation_network_session(void) {
    WebKitWebContext *context = webkit_web_context_get_default();
    webkit_web_context_set_automation_allowed(context, TRUE);
    return webkit_web_context_get_network_session_for_automation(context);
}
static inline GtkWidget *strada_web_view_new_for_automation(WebKitUserContentManager *ucm,
                                                            WebKitNetworkSession *session) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "user-content-manager", ucm,
                                   "web-context", webkit_web_context_get_default(), "network-session", session,
                                   "is-controlled-by-automation", TRUE, NULL));
}
/* When a driver starts a session: name the application (the driver matches it against "browserName") and answer
   the session's first "create-web-view" with `view` (one window: later requests get NULL, which the driver reports
   as an error); `started(session id, data)` is told. */
typedef void (*strada_automation_callback)(const char *session, void *data);
typedef struct {
    GtkWidget *view; strada_automation_callback started; void *data; const char *name; int major, minor, micro;
    gboolean handed_out;
} strada_automation_offer;
static WebKitWebView *strada_automation_create_web_view(WebKitAutomationSession *session, gpointer data) {
    (void)session;
    strada_automation_offer *offer = data;
    if (offer->handed_out) return NULL;
    offer->handed_out = TRUE;
    return WEBKIT_WEB_VIEW(offer->view);
}
static void strada_automation_started(WebKitWebContext *context, WebKitAutomationSession *session, gpointer data) {
    (void)context;
    strada_automation_offer *offer = data;
    WebKitApplicationInfo *info = webkit_application_info_new();
    webkit_application_info_set_name(info, offer->name);
    webkit_application_info_set_version(info, (guint64)offer->major, (guint64)offer->minor, (guint64)offer->micro);
    webkit_automation_session_set_application_info(session, info);
    webkit_application_info_unref(info);
    offer->handed_out = FALSE;
    g_signal_connect(session, "create-web-view", G_CALLBACK(strada_automation_create_web_view), offer);
    offer->started(webkit_automation_session_get_id(session), offer->data);
}
static inline void strada_offer_web_view_to_automation(GtkWidget *view, const char *name, int major, int minor,
                                                       int micro, strada_automation_callback started, void *data) {
    strada_automation_offer *offer = g_new0(strada_automation_offer, 1);  /* lives as long as the process */
    offer->view = view;
    offer->name = g_strdup(name);
    offer->major = major; offer->minor = minor; offer->micro = micro;
    offer->started = started;
    offer->data = data;
    g_signal_connect(webkit_web_context_get_default(), "automation-started", G_CALLBACK(strada_automation_started),
                     offer);
}
/* Route decisions and load failures. */
#include "navigation.h"
/* Permission requests and downloads. */
#include "desktop.h"
#include "files.h"
#include "application.h"
/* The app window's chrome: context menu, inspector, shortcuts window, primary menu. */
#include "chrome.h"
#endif
