/*
 * strada_plugin.h — the C ABI between the Strada for Linux host and component plugins. ABI 1.
 *
 * A plugin is a shared library that exports exactly one function, STRADA_PLUGIN_ENTRY_V1
 * ("strada_plugin_entry_v1"). The host passes it a table of host functions and receives a
 * description of the plugin: its components and the functions that drive them. Nothing but the
 * types in this header crosses the boundary: no Swift/C++/Rust objects, exceptions or panics.
 *
 * Conventions used on every function below:
 *  - Strings are UTF-8 (pointer, length) pairs; they need not be NUL-terminated unless stated.
 *  - "borrowed": valid only for the duration of the call; copy it to keep it.
 *  - [main-thread]: may only be called on the host's main thread (where the host calls the plugin).
 *    [any-thread]: may be called from any thread.
 *  - The host serialises all calls into one plugin instance; it never calls a plugin re-entrantly
 *    from a host function the plugin is executing.
 *  - Every struct starts with `struct_size`; a newer minor version only appends fields at the end.
 *    Read a field only if `struct_size` covers it.
 *
 * Rationale: one entry symbol per ABI major lets a host name the exact problem ("built for ABI 2")
 * instead of crashing; size-prefixed structs let minor versions grow like SQLite's routine table.
 * A host accepts any struct at least as large as ABI 1.0's; it never requires newer fields.
 *
 * Lifetime: the host never unloads a plugin (Swift images cannot be dlclose'd safely). The entry point may
 * also run in a short-lived probe process (`strada-host plugin list/install`, hot-reload validation), so it
 * must only describe the plugin: no side effects outside the process, no long work.
 *
 * Control ids: a plugin names its controls per instance ("submit"); the host shows them page-wide as
 * "<component>.<id>" ("form.submit": --trace, the automation channel) and calls back with the plugin's id.
 *
 * Compiles cleanly as C11 and C++17 with -Wall -Wextra -pedantic -Werror.
 */
#ifndef STRADA_PLUGIN_H
#define STRADA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STRADA_PLUGIN_ABI_MAJOR 1
#define STRADA_PLUGIN_ABI_MINOR 0
/* The one symbol a plugin exports for ABI 1. */
#define STRADA_PLUGIN_ENTRY_V1 "strada_plugin_entry_v1"

#if defined(_WIN32)
#define STRADA_PLUGIN_EXPORT __declspec(dllexport)
#else
#define STRADA_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Status codes returned across the boundary. */
typedef int32_t strada_status;
#define STRADA_OK 0
#define STRADA_ERR_INVALID_ARGUMENT (-1) /* a pointer was NULL, a string not UTF-8, a struct too small */
#define STRADA_ERR_NOT_FOUND (-2)        /* no such instance, control or component */
#define STRADA_ERR_GONE (-3)             /* the page the instance belonged to has gone away */
#define STRADA_ERR_WRONG_THREAD (-4)     /* a [main-thread] function was called from another thread */
#define STRADA_ERR_FAILED (-5)           /* anything else; the host logged why */

/* Log levels for strada_host_api_v1.log. */
typedef int32_t strada_log_level;
#define STRADA_LOG_DEBUG 0
#define STRADA_LOG_INFO 1
#define STRADA_LOG_WARNING 2
#define STRADA_LOG_ERROR 3

/* Header-bar placement for strada_button_v1.placement. */
typedef int32_t strada_placement;
#define STRADA_PLACEMENT_START 0
#define STRADA_PLACEMENT_END 1

/* Visual emphasis for strada_button_v1.style. */
#define STRADA_BUTTON_STYLE_NORMAL 0
#define STRADA_BUTTON_STYLE_SUGGESTED 1   /* the page's primary action, e.g. submit */
#define STRADA_BUTTON_STYLE_DESTRUCTIVE 2

/* Page lifecycle events for strada_plugin_v1.lifecycle (upstream's onView… hooks). */
typedef int32_t strada_lifecycle_event;
#define STRADA_LIFECYCLE_VIEW_DID_LOAD 0
#define STRADA_LIFECYCLE_VIEW_WILL_APPEAR 1
#define STRADA_LIFECYCLE_VIEW_DID_APPEAR 2
#define STRADA_LIFECYCLE_VIEW_WILL_DISAPPEAR 3
#define STRADA_LIFECYCLE_VIEW_DID_DISAPPEAR 4

/* A borrowed UTF-8 string. */
typedef struct strada_string {
    const char *data; /* may be NULL only when length is 0 */
    uint64_t length;  /* bytes, not counting any terminator */
} strada_string;

/* The host's handle for one component instance (one component of one page). Opaque to plugins.
   Valid from create_instance until destroy_instance returns; using it afterwards is safe and returns
   STRADA_ERR_GONE. */
typedef struct strada_host_instance strada_host_instance;

/* The plugin's handle for one component instance. Opaque to the host: a plugin may define
   `struct strada_plugin_instance { … };` itself, or cast its own pointer type. */
typedef struct strada_plugin_instance strada_plugin_instance;

/* A header-bar button, shown or updated with strada_host_api_v1.set_button. */
typedef struct strada_button_v1 {
    uint32_t struct_size;       /* sizeof(strada_button_v1) */
    strada_placement placement; /* STRADA_PLACEMENT_START or _END */
    strada_string id;           /* unique within the instance, e.g. "submit"; borrowed */
    strada_string title;        /* label, or the tooltip when icon_name is set; borrowed */
    strada_string icon_name;    /* freedesktop icon name, or empty for a text button; borrowed */
    uint8_t enabled;            /* 1: can be pressed; 0: shown insensitive */
    uint8_t style;              /* STRADA_BUTTON_STYLE_* */
    uint8_t reserved[6];        /* zero */
} strada_button_v1;

/* A unit of work for run_on_main_thread. */
typedef void (*strada_main_thread_fn)(void *context);

/* The functions the host gives a plugin. Owned by the host; valid until the process exits. */
typedef struct strada_host_api_v1 {
    uint32_t struct_size; /* sizeof(strada_host_api_v1) as the host knows it */
    uint32_t abi_major;   /* STRADA_PLUGIN_ABI_MAJOR of the host */
    uint32_t abi_minor;   /* STRADA_PLUGIN_ABI_MINOR of the host */
    uint32_t reserved;    /* zero */
    void *host_context;   /* opaque; pass the table itself back, not this */

    /* Sends a reply to the page: `message_json` is a whole wire message
       {"id","component","event","data":{…}} (normally a received message with new data).
       Returns STRADA_OK when handed to the web view, STRADA_ERR_GONE when the page is gone,
       STRADA_ERR_INVALID_ARGUMENT when the JSON is not a message. message_json is borrowed.
       [main-thread] */
    strada_status (*reply)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                           strada_string message_json);

    /* Writes one log line attributed to the plugin. `text` is borrowed. [any-thread] */
    void (*log)(const struct strada_host_api_v1 *host, strada_log_level level, strada_string text);

    /* The host's JSON codec settings as a JSON object, e.g. {"dates":"iso8601","keys":"snakeCase"}.
       keys: "useDefaultKeys" | "snakeCase"; dates: "deferredToDate" | "iso8601" | "secondsSince1970" |
       "millisecondsSince1970". NUL-terminated; owned by the host, valid until the process exits.
       Messages on the wire keep the page's own keys; the settings say how the host decodes `data` into
       types and encodes reply types, so plugins do the same. [any-thread] */
    const char *(*codec_settings_json)(const struct strada_host_api_v1 *host);

    /* Runs fn(context) soon on the main thread. Returns STRADA_OK when queued. [any-thread] */
    strada_status (*run_on_main_thread)(const struct strada_host_api_v1 *host, strada_main_thread_fn fn,
                                        void *context);

    /* Shows, or updates in place, a header-bar button owned by `instance`. When pressed, the host calls
       strada_plugin_v1.control_activated with the same id. The button disappears with the page.
       `button` is borrowed. Returns STRADA_OK, STRADA_ERR_GONE, or STRADA_ERR_INVALID_ARGUMENT. [main-thread] */
    strada_status (*set_button)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                                const strada_button_v1 *button);

    /* Removes the instance's button `id` (borrowed); STRADA_OK also when there was none. STRADA_ERR_GONE when
       the page is gone. [main-thread] */
    strada_status (*remove_button)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                                   strada_string id);

    /* Looks up an optional host feature by id and revision, e.g. "dev.strada.gtk-handles/1"
       (NUL-terminated, borrowed). Returns the feature's function table, owned by the host and valid until
       the process exits, or NULL when this host does not offer it. Ids with a revision never change
       meaning: a new revision gets a new id. [any-thread] */
    const void *(*get_extension)(const struct strada_host_api_v1 *host, const char *extension_id);

    /* Replies to the last message the instance received for `event` (its id and component), with
       `data_json` as the reply's data, or the received data unchanged when `data_json` is empty. Both
       borrowed. Spares plugins from parsing ids and writing whole messages: the host keeps that cache.
       Returns STRADA_OK when handed to the web view, STRADA_ERR_NOT_FOUND when no `event` message was
       received, STRADA_ERR_INVALID_ARGUMENT when data_json is not a JSON object, STRADA_ERR_GONE when
       the page is gone. [main-thread] */
    strada_status (*reply_to_event)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                                    strada_string event, strada_string data_json);
} strada_host_api_v1;

/* What a plugin describes about itself. Owned by the plugin; must stay valid and unchanged until
   the process exits (Swift plugins are never unloaded) or until shutdown returns (C/Rust plugins). */
typedef struct strada_plugin_v1 {
    uint32_t struct_size; /* sizeof(strada_plugin_v1) as the plugin knows it */
    uint32_t abi_major;   /* STRADA_PLUGIN_ABI_MAJOR the plugin was built against */
    uint32_t abi_minor;   /* STRADA_PLUGIN_ABI_MINOR the plugin was built against */
    uint32_t component_count;          /* entries in component_names */
    const char *plugin_id;             /* NUL-terminated, e.g. "dev.strada.form" */
    const char *plugin_version;        /* NUL-terminated, e.g. "1.0.0" */
    const char *const *component_names; /* NUL-terminated names, e.g. {"form"} */
    void *plugin_context;              /* passed back to create_instance and shutdown */

    /* Creates the instance of component `component_name` for one page. `host_instance` identifies it in
       host calls until destroy_instance. Returns NULL on failure (the host logs and drops the message).
       [main-thread] */
    strada_plugin_instance *(*create_instance)(void *plugin_context, const char *component_name,
                                               strada_host_instance *host_instance);

    /* Delivers one message from the page: a whole wire message as JSON ({"id","component","event","data"}).
       `message_json` is borrowed. [main-thread] */
    void (*receive)(strada_plugin_instance *instance, strada_string message_json);

    /* Forwards a page lifecycle event (STRADA_LIFECYCLE_*). May be NULL. [main-thread] */
    void (*lifecycle)(strada_plugin_instance *instance, strada_lifecycle_event event);

    /* A control the instance created was activated; `control_id` is the id it gave (borrowed).
       May be NULL if the plugin creates no controls. [main-thread] */
    void (*control_activated)(strada_plugin_instance *instance, strada_string control_id);

    /* Destroys the instance (its page went away). The host_instance handle is invalid after this
       returns; the instance's controls are already removed. [main-thread] */
    void (*destroy_instance)(strada_plugin_instance *instance);

    /* Called once before the host stops using the plugin (hot reload retires it, or the host exits).
       Stop any threads the plugin started. May be NULL. [main-thread] */
    void (*shutdown)(void *plugin_context);

    /* Looks up an optional plugin feature by id and revision (NUL-terminated, borrowed); NULL when the
       plugin does not offer it. May itself be NULL. [main-thread] */
    const void *(*get_extension)(void *plugin_context, const char *extension_id);
} strada_plugin_v1;

/* The entry point: exported as "strada_plugin_entry_v1".
   `host` is owned by the host and valid until the process exits. On success the plugin stores a pointer
   to its description in *out_plugin and returns STRADA_OK; any other return refuses loading (log why
   through host->log first). Called once per load, on the main thread. */
typedef strada_status (*strada_plugin_entry_v1_fn)(const strada_host_api_v1 *host,
                                                   const strada_plugin_v1 **out_plugin);

/* Defines the entry point with the right name, linkage and visibility. Its parameters are named `host`
   and `out_plugin` (so a file-scope variable called `host` is shadowed inside):
       STRADA_PLUGIN_ENTRY_V1_DEFINE { the_host = host; *out_plugin = &my_plugin; return STRADA_OK; }  */
#ifdef __cplusplus
#define STRADA_PLUGIN_EXTERN_C extern "C"
#else
#define STRADA_PLUGIN_EXTERN_C
#endif
#define STRADA_PLUGIN_ENTRY_V1_DEFINE                                                                      \
    STRADA_PLUGIN_EXTERN_C STRADA_PLUGIN_EXPORT strada_status strada_plugin_entry_v1(                      \
        const strada_host_api_v1 *host, const strada_plugin_v1 **out_plugin)

#ifdef __cplusplus
}
#endif

#endif /* STRADA_PLUGIN_H */
