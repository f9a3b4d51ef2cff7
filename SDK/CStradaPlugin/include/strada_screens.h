/*
 * strada_screens.h — native screens: extension "dev.strada.screens/1", offered by a plugin.
 *
 * A path configuration rule can name a native screen instead of a web page, with the key iOS uses:
 *
 *   {"patterns": ["/settings$"], "properties": {"view_controller": "settings", "title": "Settings"}}
 *
 * A visit to a matching URL then pushes a screen whose content is a GTK widget the plugin builds, with the
 * header bar, Back and the stack as for any screen. The plugin returns this table from its get_extension
 * for STRADA_SCREENS_EXTENSION_V1, naming the screens it provides. Widgets live in the host's process: an
 * --isolate'd plugin's screens are not shown (the host logs why). Using it ties a plugin to GTK 4.
 */
#ifndef STRADA_SCREENS_H
#define STRADA_SCREENS_H

#include "strada_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STRADA_SCREENS_EXTENSION_V1 "dev.strada.screens/1"

/* The size of this table in ABI 1.0: the least struct_size the host accepts. */
#define STRADA_SCREENS_V1_MIN_SIZE_1_0 32u

/* Offered by a plugin (returned by its get_extension for STRADA_SCREENS_EXTENSION_V1). Owned by the plugin;
   it and the names must stay valid until the process exits. */
typedef struct strada_screens_v1 {
    uint32_t struct_size;  /* sizeof(strada_screens_v1) as the plugin knows it */
    uint32_t screen_count; /* entries in screen_names; at least 1 */
    /* `screen_count` NUL-terminated names, the values of "view_controller" this plugin provides, e.g.
       {"settings"}. A name another loaded plugin already provides stays with the first plugin. */
    const char *const *screen_names;

    /* Builds the screen `screen_name` (one of screen_names, NUL-terminated) for the visit to `url`, with
       the properties of the path configuration rules that matched, as a JSON object `properties_json`
       (both borrowed, not NUL-terminated). Returns a GtkWidget* (a floating reference, as gtk_*_new gives;
       the host sinks it and keeps it while the screen lives), or NULL when it cannot (log why through
       host->log; the visit then shows an error). Required. [main-thread] */
    void *(*create_screen)(void *plugin_context, const char *screen_name, strada_string url,
                           strada_string properties_json);

    /* The screen is gone (popped, replaced, or the host is stopping): the host removes `widget` from the
       window and drops its reference right after this returns. Free what the screen owns. May be NULL.
       [main-thread] */
    void (*destroy_screen)(void *plugin_context, void *widget);
} strada_screens_v1;

#ifdef __cplusplus
}
#endif

#endif /* STRADA_SCREENS_H */
