/* What a page asks of the desktop for files and paper: `<input type=file>` (WebKit's "run-file-chooser") and
   `window.print()` (WebKit's "print"), answered with the native chooser and GTK's print dialog, or — under
   automation — handed to the host to answer with paths and a PDF file. */
#pragma once

/* A file chooser the page opened: `request` is referenced (answer it with strada_file_chooser_answer or
   strada_file_chooser_run_native, exactly once); `multiple` from its `multiple` attribute; `accept` a
   NULL-terminated array (freed by the callee with g_strfreev) of the `accept` attribute's MIME types, as WebKit
   passes them on (its extensions, such as `.txt`, are not). */
typedef void (*strada_file_chooser_callback)(void *request, gboolean multiple, char **accept, void *data);
typedef struct { strada_file_chooser_callback callback; void *data; } strada_file_chooser_handler;

/* The request's MIME types: the ones WebKit's filter for it holds. (Not read from the filter: its serialisation,
   gtk_file_filter_to_gvariant, passes the unnamed filter's NULL name to g_variant_new_string, a GLib-CRITICAL.) */
static char **strada_file_chooser_accept(WebKitFileChooserRequest *request) {
    const char *const *types = webkit_file_chooser_request_get_mime_types(request);
    return types ? g_strdupv((char **)types) : g_new0(char *, 1);
}

static gboolean strada_on_run_file_chooser(WebKitWebView *view, WebKitFileChooserRequest *request, gpointer data) {
    (void)view;
    strada_file_chooser_handler *handler = data;
    g_object_ref(request);
    handler->callback(request, webkit_file_chooser_request_get_select_multiple(request),
                      strada_file_chooser_accept(request), handler->data);
    return TRUE;
}

static inline void strada_connect_file_chooser(WebKitWebView *view, strada_file_chooser_callback callback,
                                               void *data) {
    strada_file_chooser_handler *handler = g_new0(strada_file_chooser_handler, 1); /* lives as long as the view */
    handler->callback = callback;
    handler->data = data;
    g_signal_connect_data(view, "run-file-chooser", G_CALLBACK(strada_on_run_file_chooser), handler,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}

/* Answers the request with `count` paths (0: cancelled) and drops the reference. */
static inline void strada_file_chooser_answer(void *request, const char *const *paths, guint count) {
    WebKitFileChooserRequest *chooser = WEBKIT_FILE_CHOOSER_REQUEST(request);
    if (count == 0) {
        webkit_file_chooser_request_cancel(chooser);
    } else {
        const char **files = g_new0(const char *, count + 1);
        for (guint i = 0; i < count; i++) files[i] = paths[i];
        webkit_file_chooser_request_select_files(chooser, files);
        g_free(files);
    }
    g_object_unref(request);
}

/* What the user chose in the native chooser: `count` absolute paths (0: cancelled). */
typedef void (*strada_files_chosen)(const char *const *paths, guint count, void *data);
typedef struct { strada_files_chosen chosen; void *data; } strada_native_chooser;

static void strada_native_chooser_response(GtkNativeDialog *dialog, int response, gpointer data) {
    strada_native_chooser *chooser = data;
    GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
    if (response == GTK_RESPONSE_ACCEPT) {
        GListModel *files = gtk_file_chooser_get_files(GTK_FILE_CHOOSER(dialog));
        for (guint i = 0; i < g_list_model_get_n_items(files); i++) {
            GFile *file = g_list_model_get_item(files, i);
            char *path = g_file_get_path(file);
            if (path) g_ptr_array_add(paths, path);
            g_object_unref(file);
        }
        g_object_unref(files);
    }
    chooser->chosen((const char *const *)paths->pdata, paths->len, chooser->data);
    g_ptr_array_unref(paths);
    g_free(chooser);
    g_object_unref(dialog);
}

/* Asks the user with the desktop's own chooser (GtkFileChooserNative: the file chooser portal where there is
   one), over `parent`, with the request's `accept` filter and `multiple` — or for folders (`folders`, an
   `<input webkitdirectory>`); `chosen(paths, count, data)` once it is closed (count 0: cancelled). */
static inline void strada_file_chooser_run_native(void *request, GtkWidget *parent, gboolean folders,
                                                  strada_files_chosen chosen, void *data) {
    WebKitFileChooserRequest *webkit = WEBKIT_FILE_CHOOSER_REQUEST(request);
    gboolean multiple = webkit_file_chooser_request_get_select_multiple(webkit);
    const char *title = folders ? "Select Folder" : multiple ? "Select Files" : "Select File";
    GtkFileChooserNative *dialog = gtk_file_chooser_native_new(
        title, GTK_WINDOW(parent), folders ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN,
        "_Select", "_Cancel");
    gtk_file_chooser_set_select_multiple(GTK_FILE_CHOOSER(dialog), multiple);
    GtkFileFilter *filter = webkit_file_chooser_request_get_mime_types_filter(webkit);
    if (filter && !folders) gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(dialog), filter);
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(dialog), TRUE);
    strada_native_chooser *chooser = g_new0(strada_native_chooser, 1);
    chooser->chosen = chosen;
    chooser->data = data;
    g_signal_connect(dialog, "response", G_CALLBACK(strada_native_chooser_response), chooser);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(dialog));
}

/* `window.print()`: `operation` is referenced (answer it with strada_print_to_pdf or strada_print_cancel, once).
   Connected only under automation: otherwise WebKit shows GTK's print dialog itself (with Print to File). */
typedef void (*strada_print_callback)(void *operation, void *data);
/* A print job ended: `error` NULL when the file was written. */
typedef void (*strada_print_done)(const char *error, void *data);
typedef struct { strada_print_callback requested; strada_print_done done; void *data; } strada_print_handler;

static gboolean strada_on_print(WebKitWebView *view, WebKitPrintOperation *operation, gpointer data) {
    (void)view;
    strada_print_handler *handler = data;
    g_object_ref(operation);
    handler->requested(operation, handler->data);
    return TRUE;
}

static inline void strada_connect_print(WebKitWebView *view, strada_print_callback requested, strada_print_done done,
                                        void *data) {
    strada_print_handler *handler = g_new0(strada_print_handler, 1); /* lives as long as the view */
    handler->requested = requested;
    handler->done = done;
    handler->data = data;
    g_object_set_data(G_OBJECT(view), "strada-print-handler", handler);
    g_signal_connect_data(view, "print", G_CALLBACK(strada_on_print), handler,
                          (GClosureNotify)(void (*)(void))g_free, 0);
}

static void strada_print_failed(WebKitPrintOperation *operation, GError *error, gpointer data) {
    g_object_set_data(G_OBJECT(operation), "strada-failed", GINT_TO_POINTER(1));
    strada_print_handler *handler = data;
    handler->done(error ? error->message : "printing failed", handler->data);
}

static void strada_print_finished(WebKitPrintOperation *operation, gpointer data) {
    gboolean failed = g_object_get_data(G_OBJECT(operation), "strada-failed") != NULL; /* "finished" follows */
    strada_print_handler *handler = data;
    if (!failed) handler->done(NULL, handler->data);
    g_object_unref(operation);
}

/* Prints the page to a PDF file at `path` (GTK's "Print to File" printer, no dialog); `done` of the view's
   handler when the file is written or printing failed. */
static inline void strada_print_to_pdf(void *operation, WebKitWebView *view, const char *path) {
    WebKitPrintOperation *print = WEBKIT_PRINT_OPERATION(operation);
    strada_print_handler *handler = g_object_get_data(G_OBJECT(view), "strada-print-handler");
    GtkPrintSettings *settings = gtk_print_settings_new();
    gtk_print_settings_set_printer(settings, "Print to File");
    gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_FILE_FORMAT, "pdf");
    char *uri = g_filename_to_uri(path, NULL, NULL);
    gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_URI, uri);
    g_free(uri);
    webkit_print_operation_set_print_settings(print, settings);
    g_object_unref(settings);
    g_signal_connect(print, "failed", G_CALLBACK(strada_print_failed), handler);
    g_signal_connect(print, "finished", G_CALLBACK(strada_print_finished), handler);
    webkit_print_operation_print(print);
}

/* Drops a print request unanswered (nothing is printed). */
static inline void strada_print_cancel(void *operation) { g_object_unref(operation); }

/* GTK's print dialog over `parent` (Print to File makes a PDF), then printing as the user chose; drops the
   reference. Returns when the dialog is closed. */
static inline void strada_print_run_dialog(void *operation, GtkWidget *parent) {
    webkit_print_operation_run_dialog(WEBKIT_PRINT_OPERATION(operation), GTK_WINDOW(parent));
    g_object_unref(operation);
}

