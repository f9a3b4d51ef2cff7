/*
 * strada_plugin.h — the C ABI between the Strada for Linux host and component plugins. ABI 1.
 *
 * A plugin is a shared library that exports exactly one function, STRADA_PLUGIN_ENTRY_V1
 * ("strada_plugin_entry_v1"). The host passes it a table of host functions and receives a
 * description of the plugin: its components and the functions that drive them. Nothing but the
 * types in this header crosses the boundary: no Swift/C++/Rust objects, exceptions or panics.
 *
 * Conventions used on every function below:
 *  - Strings are UTF-8 (pointer, length) pairs (strada_string). They are NOT NUL-terminated unless
 *    stated: never read data[length]. A `const char *` parameter or field is NUL-terminated.
 *  - "borrowed": valid only for the duration of the call; copy it to keep it.
 *  - [main-thread]: may only be called on the host's main thread (where the host calls the plugin).
 *    [any-thread]: may be called from any thread.
 *  - The host serialises all calls into one plugin instance; it never calls a plugin re-entrantly
 *    from a host function the plugin is executing.
 *  - Every struct starts with `struct_size`; a newer minor version only appends fields at the end.
 *    Read a field only if `struct_size` covers it. The least size each struct may have is exported
 *    as STRADA_<STRUCT>_MIN_SIZE_1_0 (its size in ABI 1.0); check against that, never sizeof, so a
 *    plugin built against a later 1.x header still accepts a 1.0 host's smaller tables.
 *  - Every status a function can return is listed with it. A host function never returns
 *    STRADA_ERR_FAILED in ABI 1.0; treat any status you do not know as a failure.
 *
 * Versions: the host loads a plugin whose abi_major equals its own and whose abi_minor is at most its
 * own; a plugin built against a newer minor is refused with "built for ABI 1.n, this host speaks 1.m —
 * update the host, or rebuild the plugin against SDK 1.m" (also when its manifest says so, before
 * any plugin code runs). An older plugin (1.0) on a newer host (1.n) loads: the host never requires
 * newer fields.
 *
 * Rationale: one entry symbol per ABI major lets a host name the exact problem ("built for ABI 2")
 * instead of crashing; size-prefixed structs let minor versions grow like SQLite's routine table.
 * A host accepts any struct at least as large as ABI 1.0's; it never requires newer fields.
 * A newer minor is refused because a plugin built against 1.n may call a host function appended in
 * 1.n, or rely on a promise made in 1.n, without checking; one clear line at load time beats a NULL
 * call or a silent misbehaviour later. A plugin that wants to run on older hosts builds against the
 * oldest header it supports.
 *
 * Lifetime: the host never unloads a plugin (Swift images cannot be dlclose'd safely; every plugin is
 * opened with RTLD_NODELETE), so the library's code and static data stay mapped until the process
 * exits, even after shutdown. The entry point runs once per load, on the main thread. It may also run
 * in a short-lived probe process (`strada-host plugin list/inspect/install`, the start-up check of a
 * new or changed file, hot-reload validation), so it must only describe the plugin: no side effects
 * outside the process, no long work. What it logs through host->log is shown, in probes too,
 * attributed to the plugin: log why before refusing.
 *
 * Hot reload (`strada-host run --watch`): a rebuilt plugin file is copied to a new, unique name and
 * loaded from there, so the new build is a new image with fresh static state (globals initialised
 * again, constructors run again), and its entry point runs with a new host table. The old build gets
 * shutdown and stays mapped with its own statics; nothing is shared between the two. The page's
 * instances are recreated in the new build and the last message of each event is delivered again.
 *
 * Isolation (`strada-host run --isolate`): each plugin is loaded in a worker process of its own,
 * through this same ABI. There:
 *  - the plugin's globals are per worker process: not shared with the host or other plugins, and
 *    fresh whenever the worker restarts (after a crash, or a hot reload), when the page's instances
 *    are recreated and the last message of each event is delivered again;
 *  - the "main thread" is the worker's main thread, which makes every call into the plugin;
 *    run_on_main_thread queues work onto it, and [main-thread] rules apply there unchanged;
 *  - host functions check in the worker what needs no page (arguments, UTF-8, the thread, an instance
 *    already destroyed, and the JSON: a reply that is not a bridge message, reply_to_event data that is
 *    not a JSON object, a control spec that is not valid) and refuse it as in process: the same status,
 *    the same log line. Otherwise they return STRADA_OK once the work is sent to the host process; what
 *    only the host can tell (a page that has just gone, STRADA_ERR_NOT_FOUND from reply_to_event, a
 *    capability outside the plugin's grant) is logged by the host instead of returned;
 *  - get_extension returns NULL for STRADA_GTK_HANDLES_EXTENSION_V1 (the window is in another process);
 *  - the worker is ended (SIGTERM) when the host exits or replaces it: shutdown and the last
 *    destroy_instance calls may not run, so do not rely on them to save anything.
 *
 * Names: a component name is 1 to 64 bytes of ASCII letters, digits, '-' and '_', starting with a
 * letter ("form", "overflow-menu"): it goes into the user agent and prefixes control ids. A plugin id
 * is 1 to 128 bytes of ASCII letters, digits, '.', '-' and '_', starting with a letter, reverse-DNS by
 * convention ("dev.strada.form"). A plugin version is 1 to 64 bytes of printable ASCII without spaces,
 * by convention a semantic version ("1.2.0", "2.0.0-beta.1"); the host shows it and never compares it.
 * The host refuses a plugin whose description breaks these rules.
 *
 * Control ids: a plugin names its controls per instance ("submit"); the host shows them page-wide as
 * "<component>.<id>" ("form.submit": --trace, the automation channel) and calls back with the plugin's id.
 *
 * Compiles cleanly as C11 and C++17 with -Wall -Wextra -pedantic -Werror (so do strada_controls.h and
 * strada_json.h); ../layout_checks.c pins every struct's layout (LP64: x86_64 and aarch64 Linux).
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
#define STRADA_ERR_NOT_FOUND (-2)        /* nothing to act on, e.g. no message of that event (reply_to_event) */
#define STRADA_ERR_GONE (-3)             /* the instance was destroyed or its page has gone away: normal */
#define STRADA_ERR_WRONG_THREAD (-4)     /* a [main-thread] function was called from another thread */
#define STRADA_ERR_FAILED (-5)           /* anything else, e.g. an entry point refusing; log why first */

/* Log levels for strada_host_api_v1.log. */
typedef int32_t strada_log_level;
#define STRADA_LOG_DEBUG 0
#define STRADA_LOG_INFO 1
#define STRADA_LOG_WARNING 2
#define STRADA_LOG_ERROR 3

/* Header-bar placement for strada_button_v1.placement. Other values are reserved (shown at the end). */
typedef int32_t strada_placement;
#define STRADA_PLACEMENT_START 0
#define STRADA_PLACEMENT_END 1

/* Visual emphasis for strada_button_v1.style. Other values are reserved (shown as normal). */
typedef uint8_t strada_button_style;
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

/* The sizes of ABI 1.0's structs: the least `struct_size` a reader accepts (see the conventions above).
   They never change; a later minor's larger structs get their own _MIN_SIZE_1_<n> when someone needs to
   require a newer field. */
#define STRADA_BUTTON_V1_MIN_SIZE_1_0 64u
#define STRADA_HOST_API_V1_MIN_SIZE_1_0 88u
#define STRADA_PLUGIN_V1_MIN_SIZE_1_0 104u

/* A borrowed UTF-8 string. Not NUL-terminated unless its documentation says so. */
typedef struct strada_string {
    const char *data; /* may be NULL only when length is 0 */
    uint64_t length;  /* bytes, not counting any terminator; 0 is the empty string */
} strada_string;

/* The host's handle for one component instance (one component of one page). Opaque to plugins.
   Valid from create_instance until destroy_instance returns; using it afterwards is safe and returns
   STRADA_ERR_GONE. */
typedef struct strada_host_instance strada_host_instance;

/* The plugin's handle for one component instance. Opaque to the host: a plugin may define
   `struct strada_plugin_instance { … };` itself, or cast its own pointer type. */
typedef struct strada_plugin_instance strada_plugin_instance;

/* A header-bar button, shown or updated with strada_host_api_v1.set_button. Owned by the caller; the host
   copies what it needs during set_button. */
typedef struct strada_button_v1 {
    uint32_t struct_size;       /* sizeof(strada_button_v1); at least STRADA_BUTTON_V1_MIN_SIZE_1_0 */
    strada_placement placement; /* STRADA_PLACEMENT_START or _END */
    strada_string id;           /* non-empty, unique within the instance, e.g. "submit"; borrowed */
    strada_string title;        /* label, or the tooltip when icon_name is set; borrowed */
    strada_string icon_name;    /* freedesktop icon name, or empty for a text button; borrowed */
    uint8_t enabled;            /* 1: can be pressed; 0: shown insensitive */
    strada_button_style style;  /* STRADA_BUTTON_STYLE_* */
    uint8_t reserved[6];        /* zero */
} strada_button_v1;

/* A unit of work for run_on_main_thread: called once, on the main thread, with the context given. */
typedef void (*strada_main_thread_fn)(void *context);

/* The functions the host gives a plugin: one table per loaded plugin. Owned by the host; valid until the
   process exits. Every function takes the table itself as `host`. */
typedef struct strada_host_api_v1 {
    uint32_t struct_size; /* sizeof(strada_host_api_v1) as the host knows it; >= STRADA_HOST_API_V1_MIN_SIZE_1_0 */
    uint32_t abi_major;   /* STRADA_PLUGIN_ABI_MAJOR of the host */
    uint32_t abi_minor;   /* STRADA_PLUGIN_ABI_MINOR of the host */
    uint32_t reserved;    /* zero */
    /* The host's own data for this plugin (e.g. which plugin a log line comes from). Opaque: never read,
       change or free it, and never pass it where a table is expected; pass the table itself (`host`). */
    void *host_context;

    /* Sends a reply to the page. `message_json` (borrowed) is a whole wire message, a JSON object
       {"id","component","event","data":{…}}: normally a received message with new data. The host sends it
       as it is (it does not check that id or component belong to this instance).
       Returns STRADA_OK when handed to the web view (not that the page handled it);
       STRADA_ERR_INVALID_ARGUMENT when `instance` is NULL or message_json is not UTF-8, not a message
       (string id, component and event; data an object, null or absent), over 16 MiB or nested over 512
       levels; STRADA_ERR_GONE when the instance was destroyed or its page is gone;
       STRADA_ERR_WRONG_THREAD off the main thread. [main-thread] */
    strada_status (*reply)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                           strada_string message_json);

    /* Writes one log line attributed to the plugin, at `level` (STRADA_LOG_*; an unknown level logs as an
       error). `text` is borrowed; a line that is not UTF-8 is logged as "(invalid UTF-8 log line)".
       Lines are shown also while the entry point runs in a probe process. [any-thread] */
    void (*log)(const struct strada_host_api_v1 *host, strada_log_level level, strada_string text);

    /* The host's JSON codec settings as a JSON object, e.g. {"dates":"iso8601","keys":"snakeCase"}.
       keys: "useDefaultKeys" | "snakeCase"; dates: "deferredToDate" | "iso8601" | "secondsSince1970" |
       "millisecondsSince1970". Never NULL. NUL-terminated; owned by the host, valid until the process
       exits (a later call may return another pointer if the settings changed).
       Messages on the wire keep the page's own keys; the settings say how the host decodes `data` into
       types and encodes reply types, so plugins do the same. [any-thread] */
    const char *(*codec_settings_json)(const struct strada_host_api_v1 *host);

    /* Queues fn(context) to run once on the main thread, after the host call in progress there (if any)
       returns; never inside a host function. The host does not touch `context`; the plugin owns it and
       must make sure what fn uses is still alive (an instance may be destroyed in between). Work still
       queued when the process exits does not run.
       Returns STRADA_OK when queued; STRADA_ERR_INVALID_ARGUMENT when fn is NULL. [any-thread] */
    strada_status (*run_on_main_thread)(const struct strada_host_api_v1 *host, strada_main_thread_fn fn,
                                        void *context);

    /* Shows, or updates in place, the header-bar button `button->id` owned by `instance`. When pressed, the
       host calls strada_plugin_v1.control_activated with the same id. The button disappears with the page.
       `button` and its strings are borrowed.
       Returns STRADA_OK; STRADA_ERR_INVALID_ARGUMENT when `instance` or `button` is NULL, struct_size is
       below STRADA_BUTTON_V1_MIN_SIZE_1_0, or id is empty or id, title or icon_name is not UTF-8;
       STRADA_ERR_GONE when the instance was destroyed or its page is gone; STRADA_ERR_WRONG_THREAD off the
       main thread. [main-thread] */
    strada_status (*set_button)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                                const strada_button_v1 *button);

    /* Removes the instance's button `id` (borrowed) without calling control_activated.
       Returns STRADA_OK, also when there was no such button; STRADA_ERR_INVALID_ARGUMENT when `instance` is
       NULL or id is not UTF-8; STRADA_ERR_GONE when the instance was destroyed or its page is gone;
       STRADA_ERR_WRONG_THREAD off the main thread. [main-thread] */
    strada_status (*remove_button)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                                   strada_string id);

    /* Looks up an optional host feature by id and revision, e.g. STRADA_CONTROLS_EXTENSION_V1
       (strada_controls.h; NUL-terminated, borrowed). Returns the feature's function table, owned by the
       host and valid until the process exits, or NULL when this host does not offer it (also for a NULL
       or non-UTF-8 id). Check the table's struct_size before use. Ids with a revision never change
       meaning: a new revision gets a new id. [any-thread] */
    const void *(*get_extension)(const struct strada_host_api_v1 *host, const char *extension_id);

    /* Replies to the last message the instance received for `event` (its id and component), with
       `data_json` as the reply's data, or the received data unchanged when data_json is empty (length 0;
       data may then be NULL; "{}" is not empty, it replies with {}). Both borrowed. The message being
       delivered counts as received: receive may answer it at once. Spares plugins from parsing ids and
       writing whole messages: the host keeps that cache (one message per event, the newest).
       Returns STRADA_OK when handed to the web view; STRADA_ERR_INVALID_ARGUMENT when `instance` is NULL,
       event is empty or not UTF-8, or data_json is neither empty nor a JSON object (at most 16 MiB; checked
       first, so also when no such message was received); STRADA_ERR_NOT_FOUND when no `event` message was
       received; STRADA_ERR_GONE when the instance was
       destroyed or its page is gone; STRADA_ERR_WRONG_THREAD off the main thread. [main-thread] */
    strada_status (*reply_to_event)(const struct strada_host_api_v1 *host, strada_host_instance *instance,
                                    strada_string event, strada_string data_json);
} strada_host_api_v1;

/* What a plugin describes about itself. Owned by the plugin; it and everything it points to (strings, the
   name array) must stay valid and unchanged until the process exits, in every language, also after
   shutdown: the image is never unloaded, so static storage does it. The host reads the function
   pointers on every call.
   Required: create_instance, receive and destroy_instance; the other functions may be NULL. A description
   without them, without components, or whose id, names or version break the naming rules above (Names)
   is refused ("invalid plugin description: …"). */
typedef struct strada_plugin_v1 {
    uint32_t struct_size; /* sizeof(strada_plugin_v1) as the plugin knows it; >= STRADA_PLUGIN_V1_MIN_SIZE_1_0 */
    uint32_t abi_major;   /* STRADA_PLUGIN_ABI_MAJOR the plugin was built against: must equal the host's */
    uint32_t abi_minor;   /* STRADA_PLUGIN_ABI_MINOR the plugin was built against: at most the host's */
    uint32_t component_count;           /* entries in component_names; at least 1 */
    const char *plugin_id;              /* NUL-terminated, required, e.g. "dev.strada.form" */
    const char *plugin_version;         /* NUL-terminated, e.g. "1.0.0"; NULL is shown as "0.0.0" */
    /* `component_count` pointers to NUL-terminated names, e.g. {"form"}. The array itself need not end
       with a NULL pointer: the host reads exactly component_count entries (and none may be NULL). A name
       another loaded plugin already provides stays with the first plugin (by folder, then file name). */
    const char *const *component_names;
    void *plugin_context;               /* opaque to the host; passed back to create_instance, shutdown and
                                           get_extension */

    /* Creates the instance of component `component_name` for one page. `component_name` is one of
       component_names (equal bytes, not necessarily the same pointer): NUL-terminated, owned by the host,
       borrowed for the call. `host_instance` identifies the instance in host calls until destroy_instance.
       Returns the plugin's instance (never seen through by the host), or NULL on failure: the host logs
       it and drops the component's messages for that page. [main-thread] */
    strada_plugin_instance *(*create_instance)(void *plugin_context, const char *component_name,
                                               strada_host_instance *host_instance);

    /* Delivers one message from the page. `message_json` (borrowed, UTF-8, NOT NUL-terminated: use its
       length) is a whole wire message as the page sent it: a JSON object with string "id", "component"
       and "event", and "data" an object, null or absent (read the last two as {}); other members may be
       present. At most 16 MiB. Answer it with reply_to_event(event), which already counts this message
       as received, or with reply. Required. [main-thread] */
    void (*receive)(strada_plugin_instance *instance, strada_string message_json);

    /* Forwards a page lifecycle event (STRADA_LIFECYCLE_*). May be NULL. [main-thread] */
    void (*lifecycle)(strada_plugin_instance *instance, strada_lifecycle_event event);

    /* A button the instance created was pressed; `control_id` is the id it gave (borrowed).
       May be NULL if the plugin creates no buttons. [main-thread] */
    void (*control_activated)(strada_plugin_instance *instance, strada_string control_id);

    /* Destroys the instance (its page went away, or a hot reload replaces it). The host_instance handle
       is invalid after this returns; the instance's controls are already removed. The plugin frees what
       the instance owns. Required. [main-thread] */
    void (*destroy_instance)(strada_plugin_instance *instance);

    /* Called at most once, when the host stops using the plugin (hot reload retires it, its file is
       removed, or the host exits); not when the process is killed, nor in a probe. Stop any threads the
       plugin started and flush what it keeps. The plugin stays loaded afterwards. May be NULL.
       [main-thread] */
    void (*shutdown)(void *plugin_context);

    /* Looks up an optional plugin feature by id and revision (NUL-terminated, borrowed), e.g.
       STRADA_CONTROL_EVENTS_EXTENSION_V1; returns its table (owned by the plugin, valid until the process
       exits) or NULL when the plugin does not offer it. May itself be NULL. [main-thread] */
    const void *(*get_extension)(void *plugin_context, const char *extension_id);
} strada_plugin_v1;

/* Messages already read: offered by a plugin through its get_extension for
   STRADA_PARSED_MESSAGES_EXTENSION_V1. With it the host delivers each message with its members picked out
   (receive_message) instead of the text alone (receive), so the plugin need not parse the envelope the host
   has just parsed. Optional: without it (and in an --isolate worker) receive is used. Owned by the plugin;
   valid until the process exits. The host ignores a table whose struct_size is below
   STRADA_PARSED_MESSAGES_V1_MIN_SIZE_1_0. */
#define STRADA_PARSED_MESSAGES_EXTENSION_V1 "dev.strada.parsed-messages/1"
#define STRADA_MESSAGE_V1_MIN_SIZE_1_0 104u
#define STRADA_PARSED_MESSAGES_V1_MIN_SIZE_1_0 16u

/* strada_message_v1.flags */
#define STRADA_MESSAGE_HAS_METADATA_URL 1u /* data.metadata.url is a string: metadata_url holds it */

/* One message from the page as the host read it. Everything is borrowed for the call and valid UTF-8; the
   strings are the members' values with their JSON escapes decoded (an id "a\"b" arrives as a"b). */
typedef struct strada_message_v1 {
    uint32_t struct_size;       /* sizeof(strada_message_v1) as the host knows it; >= _MIN_SIZE_1_0 */
    uint32_t flags;             /* STRADA_MESSAGE_* bits; unknown bits are zero in ABI 1 */
    strada_string wire_json;    /* the whole wire message as the page sent it: what receive would get */
    strada_string id;           /* "id" */
    strada_string component;    /* "component": one of the instance's names */
    strada_string event;        /* "event" */
    strada_string data_json;    /* "data" as the page wrote it, a JSON object; "{}" when absent or null */
    strada_string metadata_url; /* data.metadata.url with STRADA_MESSAGE_HAS_METADATA_URL, else empty */
} strada_message_v1;

typedef struct strada_parsed_messages_v1 {
    uint32_t struct_size; /* sizeof(strada_parsed_messages_v1) as the plugin knows it */
    uint32_t reserved;    /* zero */
    /* Delivers one message from the page, as receive does (the same rules and answers apply); `message`
       and everything it points to are borrowed. Required in the table. [main-thread] */
    void (*receive_message)(strada_plugin_instance *instance, const strada_message_v1 *message);
} strada_parsed_messages_v1;

/* The entry point: exported as "strada_plugin_entry_v1". Called once per load, on the main thread,
   before any other plugin function; possibly in a probe process (see Lifetime above).
   `host` is owned by the host and valid until the process exits: keep the pointer. On success the plugin
   stores a pointer to its description in *out_plugin and returns STRADA_OK; any other return refuses
   loading ("its entry point refused to load (status n)"): log why through host->log first. A plugin
   checks host->abi_major and host->struct_size >= STRADA_HOST_API_V1_MIN_SIZE_1_0 before using the table. */
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
