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

/* Offered by the host. Owned by the host; valid until the process exits. */
typedef struct strada_controls_v1 {
    uint32_t struct_size; /* sizeof(strada_controls_v1) as the host knows it */
    uint32_t reserved;    /* zero */

    /* Shows, or updates, control `control_id` of `instance` as `spec_json` describes (both borrowed).
       Returns STRADA_OK, STRADA_ERR_INVALID_ARGUMENT (the spec is not valid; the host logged why) or
       STRADA_ERR_GONE (the page is gone). [main-thread] */
    strada_status (*show)(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string control_id,
                          strada_string spec_json);

    /* Removes control `control_id` without producing an event. STRADA_OK also when there was none.
       [main-thread] */
    strada_status (*remove)(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string control_id);
} strada_controls_v1;

/* Offered by a plugin that shows menus, alerts or searches: returned by its get_extension for
   STRADA_CONTROL_EVENTS_EXTENSION_V1. Owned by the plugin; valid while the plugin is loaded. */
typedef struct strada_control_events_v1 {
    uint32_t struct_size; /* sizeof(strada_control_events_v1) as the plugin knows it */
    uint32_t reserved;    /* zero */

    /* Something happened to a control the instance showed: `event_json` as listed above (borrowed).
       Never called after destroy_instance. [main-thread] */
    void (*control_event)(strada_plugin_instance *instance, strada_string control_id, strada_string event_json);
} strada_control_events_v1;

/* Offered by the host: the raw GTK objects, for components that need more than the controls above.
   Extension "dev.strada.gtk-handles/1". Pointers are borrowed: valid on the main thread while the window
   exists; never free or unref them. What a plugin adds to them is its own to remove (on destroy_instance).
   Available from the first create_instance on (the window exists by then). Using them ties a plugin to
   GTK 4 / WebKitGTK 6.0; prefer the controls above. */
#define STRADA_GTK_HANDLES_EXTENSION_V1 "dev.strada.gtk-handles/1"

typedef struct strada_gtk_handles_v1 {
    uint32_t struct_size; /* sizeof(strada_gtk_handles_v1) as the host knows it */
    uint32_t reserved;    /* zero */
    void *(*window)(const strada_host_api_v1 *host);     /* GtkWindow*     [main-thread] */
    void *(*header_bar)(const strada_host_api_v1 *host); /* AdwHeaderBar*  [main-thread] */
    void *(*web_view)(const strada_host_api_v1 *host);   /* WebKitWebView* [main-thread] */
} strada_gtk_handles_v1;

#ifdef __cplusplus
}
#endif

#endif /* STRADA_CONTROLS_H */
