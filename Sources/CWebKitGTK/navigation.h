/* Route decisions and load failures: WebKit's "decide-policy" and "load-failed" signals reduced to what the
   host decides on (a URL and a few facts), so Swift needs no GObject casts or GError handling. */
#ifndef STRADA_CWEBKITGTK_NAVIGATION_H
#define STRADA_CWEBKITGTK_NAVIGATION_H
#include <adwaita.h>
#include <webkit/webkit.h>

static inline GtkStack *strada_stack_of(GtkWidget *widget) { return GTK_STACK(widget); }
static inline AdwStatusPage *strada_status_page_of(GtkWidget *widget) { return ADW_STATUS_PAGE(widget); }

/* What kind of decision WebKit asks for. */
typedef enum {
    STRADA_ROUTE_NAVIGATION = 0, /* a frame navigates (link, form, script, redirect); frame unknown */
    STRADA_ROUTE_NEW_WINDOW = 1, /* target=_blank or window.open */
    STRADA_ROUTE_RESPONSE = 2    /* the main frame's main resource answered (after any redirects) */
} strada_route_kind;

/* The host's answer. */
typedef enum {
    STRADA_ROUTE_DEFAULT = 0, /* WebKit decides as usual */
    STRADA_ROUTE_IGNORE = 1   /* not loaded here: the host routed it elsewhere (browser, system, a visit) */
} strada_route_verdict;

/* `uri` is borrowed; `redirect` is true for a navigation that is a server redirect. Responses of subframes
   and subresources never reach the callback. */
typedef strada_route_verdict (*strada_route_callback)(strada_route_kind kind, const char *uri, gboolean redirect,
                                                      void *data);

typedef struct { strada_route_callback callback; void *data; } strada_route_handler;

static gboolean strada_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision,
                                     WebKitPolicyDecisionType type, gpointer data) {
    (void)view;
    strada_route_handler *handler = data;
    strada_route_verdict verdict = STRADA_ROUTE_DEFAULT;
    if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE) {
        WebKitResponsePolicyDecision *response = WEBKIT_RESPONSE_POLICY_DECISION(decision);
        if (!webkit_response_policy_decision_is_main_frame_main_resource(response)) return FALSE;
        WebKitURIRequest *request = webkit_response_policy_decision_get_request(response);
        verdict = handler->callback(STRADA_ROUTE_RESPONSE, webkit_uri_request_get_uri(request), FALSE, handler->data);
    } else {
        WebKitNavigationAction *action =
            webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
        WebKitURIRequest *request = webkit_navigation_action_get_request(action);
        strada_route_kind kind =
            type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION ? STRADA_ROUTE_NEW_WINDOW : STRADA_ROUTE_NAVIGATION;
        verdict = handler->callback(kind, webkit_uri_request_get_uri(request),
                                    webkit_navigation_action_is_redirect(action), handler->data);
    }
    if (verdict == STRADA_ROUTE_IGNORE) {
        webkit_policy_decision_ignore(decision);
        return TRUE;
    }
    return FALSE;
}

static inline void strada_connect_route_decisions(WebKitWebView *view, strada_route_callback callback, void *data) {
    strada_route_handler *handler = g_new0(strada_route_handler, 1); /* lives as long as the view */
    handler->callback = callback;
    handler->data = data;
    g_signal_connect_data(view, "decide-policy", G_CALLBACK(strada_decide_policy), handler,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}

/* A load failed before its document was committed (no connection, DNS, TLS, …). `message` is WebKit's text
   (borrowed). Loads the host or the user stopped, and loads a route decision or a download took over, are
   not failures and never reach the callback. Returns TRUE when the host shows its own error screen (WebKit
   then shows none). */
typedef gboolean (*strada_load_failed_callback)(const char *uri, const char *message, void *data);

typedef struct { strada_load_failed_callback callback; void *data; } strada_load_failed_handler;

static gboolean strada_load_failed(WebKitWebView *view, WebKitLoadEvent event, char *uri, GError *error,
                                   gpointer data) {
    (void)view;
    if (event == WEBKIT_LOAD_COMMITTED || event == WEBKIT_LOAD_FINISHED) return FALSE;
    if (g_error_matches(error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED) ||
        g_error_matches(error, WEBKIT_POLICY_ERROR, WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE) ||
        g_error_matches(error, WEBKIT_MEDIA_ERROR, WEBKIT_MEDIA_ERROR_WILL_HANDLE_LOAD))
        return FALSE;
    strada_load_failed_handler *handler = data;
    return handler->callback(uri, error ? error->message : "the load failed", handler->data);
}

static inline void strada_connect_load_failed(WebKitWebView *view, strada_load_failed_callback callback, void *data) {
    strada_load_failed_handler *handler = g_new0(strada_load_failed_handler, 1);
    handler->callback = callback;
    handler->data = data;
    g_signal_connect_data(view, "load-failed", G_CALLBACK(strada_load_failed), handler,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}

/* The HTTP status of the main resource shown now (0 for files, data and pages without a response). */
static inline guint strada_main_resource_status(WebKitWebView *view) {
    WebKitWebResource *resource = webkit_web_view_get_main_resource(view);
    if (!resource) return 0;
    WebKitURIResponse *response = webkit_web_resource_get_response(resource);
    return response ? webkit_uri_response_get_status_code(response) : 0;
}

#endif
