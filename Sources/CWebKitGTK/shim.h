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
/* "placeholder-text" of GtkSearchEntry (gtk_search_entry_set_placeholder_text is GTK 4.10+; Debian 12 has 4.8). */
static inline void strada_set_placeholder_text(GtkWidget *widget, const char *text) {
    g_object_set(G_OBJECT(widget), "placeholder-text", text, NULL);
}
#endif
