/*
 * strada_controls.h — native controls beyond header-bar buttons: extension "dev.strada.controls/1".
 *
 *   const strada_controls_v1 *controls = host->get_extension(host, STRADA_CONTROLS_EXTENSION_V1);
 *
 * Controls are described as JSON (the plugin already speaks JSON for messages), so new kinds and fields
 * can be added without changing this table. A control belongs to the instance (page) that showed it and
 * disappears with it; results come back through the plugin's "dev.strada.control-events/1" extension.
 *
 * Control kinds (field "kind" of spec_json) and their fields:
 *   "menu"        title, items: [{title, index}], anchor?: {x, y, width, height} (page CSS pixels),
 *                 anchorButton?: the id of one of the instance's header-bar buttons to point at
 *                 → event {"type":"chosen","index":n} or {"type":"dismissed"}, exactly once
 *   "alert"       title, message?, confirm? ("OK"), dismiss? ("Cancel"), destructive? (false)
 *                 → event {"type":"confirmed"} or {"type":"dismissed"}, exactly once
 *   "search"      placeholder?       → event {"type":"changed","text":"…"} on every change
 *   "toast"       message            (transient; no events)
 *   "title"       title?, subtitle?  (window title; a null title returns to the page's own)
 *   "clipboard"   text
 *   "colorScheme" scheme: "light" | "dark" | "system"
 *   "openURL"     url                (the user's browser)
 * The control_id is the instance's own name for the control (e.g. "menu"); the host namespaces it.
 */
#ifndef STRADA_CONTROLS_H
#define STRADA_CONTROLS_H

#include "strada_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STRADA_CONTROLS_EXTENSION_V1 "dev.strada.controls/1"
#define STRADA_CONTROL_EVENTS_EXTENSION_V1 "dev.strada.control-events/1"
#define STRADA_GTK_HANDLES_EXTENSION_V1 "dev.strada.gtk-handles/1"

/* The sizes of these tables in ABI 1.0: the least struct_size a reader accepts. */
#define STRADA_CONTROLS_V1_MIN_SIZE_1_0 24u
#define STRADA_CONTROL_EVENTS_V1_MIN_SIZE_1_0 16u
#define STRADA_GTK_HANDLES_V1_MIN_SIZE_1_0 32u

/* Offered by the host (get_extension(STRADA_CONTROLS_EXTENSION_V1)), also in an --isolate worker. Owned
   by the host; valid until the process exits. */
typedef struct strada_controls_v1 {
    uint32_t struct_size; /* sizeof(strada_controls_v1) as the host knows it; >= STRADA_CONTROLS_V1_MIN_SIZE_1_0 */
    uint32_t reserved;    /* zero */

    /* Shows, or updates, control `control_id` of `instance` as `spec_json` describes (both borrowed).
       Returns STRADA_OK; STRADA_ERR_INVALID_ARGUMENT when `instance` is NULL, control_id is empty or not
       UTF-8, or spec_json is not UTF-8 or not a valid spec (the host logged why); STRADA_ERR_GONE when the
       instance was destroyed or its page is gone; STRADA_ERR_WRONG_THREAD off the main thread.
       [main-thread] */
    strada_status (*show)(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string control_id,
                          strada_string spec_json);

    /* Removes control `control_id` (borrowed) without producing an event.
       Returns STRADA_OK, also when there was none; STRADA_ERR_INVALID_ARGUMENT when `instance` is NULL or
       control_id is not UTF-8; STRADA_ERR_GONE when the instance was destroyed or its page is gone;
       STRADA_ERR_WRONG_THREAD off the main thread. [main-thread] */
    strada_status (*remove)(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string control_id);
} strada_controls_v1;

/* Offered by a plugin that shows menus, alerts or searches: returned by its get_extension for
   STRADA_CONTROL_EVENTS_EXTENSION_V1. Owned by the plugin; valid until the process exits (the plugin is
   never unloaded). The host ignores a table whose struct_size is below STRADA_CONTROL_EVENTS_V1_MIN_SIZE_1_0
   (the events are then dropped). */
typedef struct strada_control_events_v1 {
    uint32_t struct_size; /* sizeof(strada_control_events_v1) as the plugin knows it */
    uint32_t reserved;    /* zero */

    /* Something happened to a control the instance showed: `control_id` is the id it gave, `event_json` a
       JSON object as listed above (both borrowed, not NUL-terminated). Never called after
       destroy_instance. Required in the table. [main-thread] */
    void (*control_event)(strada_plugin_instance *instance, strada_string control_id, strada_string event_json);
} strada_control_events_v1;

/* Offered by the host: the raw GTK objects, for components that need more than the controls above.
   Extension STRADA_GTK_HANDLES_EXTENSION_V1. Pointers are borrowed: valid on the main thread while the
   window exists; never free or unref them. What a plugin adds to them is its own to remove (on
   destroy_instance). get_extension returns the table from the first create_instance on (the window exists
   by then), NULL before (in the entry point) and in an --isolate worker (the window is in another
   process). Using them ties a plugin to GTK 4 / WebKitGTK 6.0; prefer the controls above. */
typedef struct strada_gtk_handles_v1 {
    uint32_t struct_size; /* sizeof(strada_gtk_handles_v1) as the host knows it; >= _MIN_SIZE_1_0 */
    uint32_t reserved;    /* zero */
    void *(*window)(const strada_host_api_v1 *host);     /* GtkWindow*     [main-thread] */
    void *(*header_bar)(const strada_host_api_v1 *host); /* AdwHeaderBar*  [main-thread] */
    void *(*web_view)(const strada_host_api_v1 *host);   /* WebKitWebView* [main-thread] */
} strada_gtk_handles_v1;

#ifdef __cplusplus
}
#endif

#endif /* STRADA_CONTROLS_H */
