/* The C surface StradaEngineGTK needs from GTK 4 / WebKitGTK 6.0, plus what Swift cannot express. */
#ifndef STRADA_CWEBKITGTK_SHIM_H
#define STRADA_CWEBKITGTK_SHIM_H
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <glib-unix.h>

/* libdispatch's main-queue hooks (exported by libdispatch.so on Linux): an eventfd that becomes readable
   when DispatchQueue.main has work, and the function that drains it. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* g_object_new is variadic: construct-only properties need a C helper. */
static inline GtkWidget *strada_web_view_new(WebKitUserContentManager *ucm, WebKitNetworkSession *session) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "user-content-manager", ucm, "network-session", session, NULL));
}

static inline GtkWindow *strada_gtk_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkButton *strada_gtk_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkHeaderBar *strada_gtk_header_bar(GtkWidget *widget) { return GTK_HEADER_BAR(widget); }
static inline WebKitWebView *strada_webkit_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }
#endif
