/* What browsers do that an app needs: permission requests and downloads, reduced to plain callbacks. */
#ifndef STRADA_CWEBKITGTK_DESKTOP_H
#define STRADA_CWEBKITGTK_DESKTOP_H
#include <webkit/webkit.h>

/* A permission request: `kind` is "notifications", "geolocation", "camera", "microphone",
   "camera-and-microphone", "screen" or "other"; `request` is referenced: answer it with
   strada_permission_answer exactly once. */
typedef void (*strada_permission_callback)(const char *kind, void *request, void *data);
typedef struct { strada_permission_callback callback; void *data; } strada_permission_handler;

static gboolean strada_on_permission_request(WebKitWebView *view, WebKitPermissionRequest *request, gpointer data) {
    (void)view;
    const char *kind = "other";
    if (WEBKIT_IS_NOTIFICATION_PERMISSION_REQUEST(request)) {
        kind = "notifications";
    } else if (WEBKIT_IS_GEOLOCATION_PERMISSION_REQUEST(request)) {
        kind = "geolocation";
    } else if (WEBKIT_IS_USER_MEDIA_PERMISSION_REQUEST(request)) {
        WebKitUserMediaPermissionRequest *media = WEBKIT_USER_MEDIA_PERMISSION_REQUEST(request);
        gboolean audio = webkit_user_media_permission_is_for_audio_device(media);
        gboolean video = webkit_user_media_permission_is_for_video_device(media);
        if (webkit_user_media_permission_is_for_display_device(media)) kind = "screen";
        else if (audio && video) kind = "camera-and-microphone";
        else if (video) kind = "camera";
        else if (audio) kind = "microphone";
    }
    strada_permission_handler *handler = data;
    g_object_ref(request);
    handler->callback(kind, request, handler->data);
    return TRUE;
}

static inline void strada_permission_answer(void *request, gboolean allow) {
    if (allow) webkit_permission_request_allow(WEBKIT_PERMISSION_REQUEST(request));
    else webkit_permission_request_deny(WEBKIT_PERMISSION_REQUEST(request));
    g_object_unref(request);
}

static inline void strada_connect_permission_requests(WebKitWebView *view, strada_permission_callback callback,
                                                      void *data) {
    strada_permission_handler *handler = g_new0(strada_permission_handler, 1); /* lives as long as the view */
    handler->callback = callback;
    handler->data = data;
    g_signal_connect_data(view, "permission-request", G_CALLBACK(strada_on_permission_request), handler,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}

/* Downloads of a network session go to `folder` (created if needed), under the name the server suggests made
   unique ("report (2).pdf"). `done(path, error, data)` once per download: error NULL when it finished. */
typedef void (*strada_download_callback)(const char *path, const char *error, void *data);
typedef struct { char *folder; strada_download_callback done; void *data; } strada_downloads;

static gboolean strada_download_destination(WebKitDownload *download, gchar *suggested, gpointer data) {
    strada_downloads *downloads = data;
    g_mkdir_with_parents(downloads->folder, 0755);
    char *name = g_path_get_basename(suggested && *suggested ? suggested : "download");
    if (g_strcmp0(name, ".") == 0 || g_strcmp0(name, "/") == 0 || g_strcmp0(name, "..") == 0) {
        g_free(name);
        name = g_strdup("download");
    }
    char *path = g_build_filename(downloads->folder, name, NULL);
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    for (int n = 2; g_file_test(path, G_FILE_TEST_EXISTS) && n < 1000; n++) {
        g_free(path);
        char *unique = g_strdup_printf("%.*s (%d)%s", (int)stem, name, n, name + stem);
        path = g_build_filename(downloads->folder, unique, NULL);
        g_free(unique);
    }
    webkit_download_set_destination(download, path);
    g_free(path);
    g_free(name);
    return TRUE;
}

static void strada_download_failed(WebKitDownload *download, GError *error, gpointer data) {
    strada_downloads *downloads = data;
    g_object_set_data(G_OBJECT(download), "strada-failed", GINT_TO_POINTER(1));
    const char *path = webkit_download_get_destination(download);
    downloads->done(path ? path : "", error ? error->message : "the download failed", downloads->data);
}

static void strada_download_finished(WebKitDownload *download, gpointer data) {
    strada_downloads *downloads = data;
    if (g_object_get_data(G_OBJECT(download), "strada-failed")) return; /* "finished" follows "failed" */
    const char *path = webkit_download_get_destination(download);
    downloads->done(path ? path : "", NULL, downloads->data);
}

static void strada_download_started(WebKitNetworkSession *session, WebKitDownload *download, gpointer data) {
    (void)session;
    g_signal_connect(download, "decide-destination", G_CALLBACK(strada_download_destination), data);
    g_signal_connect(download, "failed", G_CALLBACK(strada_download_failed), data);
    g_signal_connect(download, "finished", G_CALLBACK(strada_download_finished), data);
}

static inline void strada_connect_downloads(WebKitNetworkSession *session, const char *folder,
                                            strada_download_callback done, void *data) {
    strada_downloads *downloads = g_new0(strada_downloads, 1); /* lives as long as the session */
    downloads->folder = g_strdup(folder);
    downloads->done = done;
    downloads->data = data;
    g_signal_connect(session, "download-started", G_CALLBACK(strada_download_started), downloads);
}

/* The user's Downloads folder: XDG's, or ~/Downloads when the user has none configured. */
static inline char *strada_downloads_folder(void) {
    const char *folder = g_get_user_special_dir(G_USER_DIRECTORY_DOWNLOAD);
    return folder ? g_strdup(folder) : g_build_filename(g_get_home_dir(), "Downloads", NULL);
}
/* Web notifications (`new Notification(…)` once permitted): `shown(title, body, data)`; the host shows them. */
typedef void (*strada_notification_callback)(const char *title, const char *body, void *data);
typedef struct { strada_notification_callback callback; void *data; } strada_notification_handler;
static gboolean strada_on_show_notification(WebKitWebView *view, WebKitNotification *notification, gpointer data) {
    (void)view;
    strada_notification_handler *handler = data;
    handler->callback(webkit_notification_get_title(notification), webkit_notification_get_body(notification),
                      handler->data);
    return TRUE;
}
static inline void strada_connect_notifications(WebKitWebView *view, strada_notification_callback callback,
                                                void *data) {
    strada_notification_handler *handler = g_new0(strada_notification_handler, 1);
    handler->callback = callback;
    handler->data = data;
    g_signal_connect_data(view, "show-notification", G_CALLBACK(strada_on_show_notification), handler,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}
#endif
