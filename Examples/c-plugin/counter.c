/*
 * counter.c — a Strada component plugin in plain C11, built against strada_plugin.h only.
 *
 * Component "counter":
 *   web → native  connect {title?}   show a header-bar button (id "count", label `title` or "Count")
 *   web → native  disconnect         remove the button
 *   button press                     reply to the last connect with {"count": n}, n = 1, 2, 3, …
 *
 * Build: make            (see Makefile; produces libcounter_c.so)
 *
 * Rules this file follows (see strada_plugin.h):
 *  - Every string the host hands us is borrowed: what we keep (the connect message id), we copy.
 *  - Every host function is called on the main thread, from inside a host → plugin call.
 *  - Every host status code is checked; failures are logged through host->log, never fatal.
 *  - Bad input (malformed JSON, missing fields, allocation failure) is logged and ignored.
 */
#include "strada_plugin.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPONENT_NAME "counter"
#define BUTTON_ID "count"

/* ------------------------------------------------------------------------------------------------
 * A small JSON scanner.
 *
 * It does not build a tree: it walks the text of one JSON object and finds a member by key, then
 * decodes string values. What it handles: any valid JSON (nested objects and arrays are skipped
 * correctly, strings with every escape including \uXXXX and surrogate pairs, numbers, literals).
 * Its limits, on purpose:
 *  - nesting deeper than JSON_MAX_DEPTH is treated as malformed;
 *  - json_find_member checks structure only as far as it walks (receive() validates the whole
 *    message first with json_skip_value); numbers are accepted by their character set; raw bytes
 *    are not checked for UTF-8 (the host only hands over valid UTF-8);
 *  - a key longer than JSON_MAX_KEY bytes never matches (the keys we look for are short);
 *  - duplicate keys: the first one wins.
 * ---------------------------------------------------------------------------------------------- */

#define JSON_MAX_DEPTH 64
#define JSON_MAX_KEY 64

typedef struct json_span {
    const char *start; /* first byte of the value (for a string: its opening quote) */
    const char *end;   /* one past the last byte */
} json_span;

static const char *json_skip_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

static int json_hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Reads 4 hex digits at p (bounds already checked by the caller). Returns -1 when not hex. */
static long json_hex4(const char *p) {
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = json_hex_digit(p[i]);
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    return value;
}

/* p points at '"'. Returns one past the closing quote, or NULL when the string is malformed. */
static const char *json_skip_string(const char *p, const char *end) {
    if (p >= end || *p != '"') return NULL;
    for (p++; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') return p + 1;
        if (c < 0x20) return NULL; /* control characters must be escaped */
        if (c == '\\') {
            if (++p >= end) return NULL;
            if (*p == 'u') {
                if (end - p < 5 || json_hex4(p + 1) < 0) return NULL;
                p += 4;
            } else if (*p == '\0' || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return NULL; /* unterminated */
}

/* Skips one value of any kind. Returns one past it, or NULL when malformed. */
static const char *json_skip_value(const char *p, const char *end, int depth) {
    p = json_skip_space(p, end);
    if (p >= end) return NULL;
    if (*p == '"') return json_skip_string(p, end);
    if (*p == '{' || *p == '[') {
        if (depth >= JSON_MAX_DEPTH) return NULL;
        char close = *p == '{' ? '}' : ']';
        bool object = *p == '{';
        p = json_skip_space(p + 1, end);
        if (p < end && *p == close) return p + 1;
        for (;;) {
            if (object) {
                p = json_skip_string(json_skip_space(p, end), end);
                if (!p) return NULL;
                p = json_skip_space(p, end);
                if (p >= end || *p != ':') return NULL;
                p++;
            }
            p = json_skip_value(p, end, depth + 1);
            if (!p) return NULL;
            p = json_skip_space(p, end);
            if (p >= end) return NULL;
            if (*p == close) return p + 1;
            if (*p != ',') return NULL;
            p++;
        }
    }
    static const char *const literals[] = {"true", "false", "null"};
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        size_t length = strlen(literals[i]);
        if ((size_t)(end - p) >= length && memcmp(p, literals[i], length) == 0) return p + length;
    }
    const char *start = p;
    while (p < end && *p != '\0' && strchr("+-.0123456789eE", *p)) p++;
    return p > start ? p : NULL;
}

/* Appends code point `cp` as UTF-8 to out (capacity checked). Returns false when it does not fit. */
static bool json_put_utf8(unsigned long cp, char *out, size_t capacity, size_t *length) {
    unsigned char bytes[4];
    size_t count;
    if (cp < 0x80) { bytes[0] = (unsigned char)cp; count = 1; }
    else if (cp < 0x800) { bytes[0] = (unsigned char)(0xC0 | (cp >> 6)); bytes[1] = (unsigned char)(0x80 | (cp & 0x3F)); count = 2; }
    else if (cp < 0x10000) {
        bytes[0] = (unsigned char)(0xE0 | (cp >> 12)); bytes[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        bytes[2] = (unsigned char)(0x80 | (cp & 0x3F)); count = 3;
    } else {
        bytes[0] = (unsigned char)(0xF0 | (cp >> 18)); bytes[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        bytes[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)); bytes[3] = (unsigned char)(0x80 | (cp & 0x3F)); count = 4;
    }
    if (*length + count >= capacity) return false; /* keep room for the NUL */
    memcpy(out + *length, bytes, count);
    *length += count;
    return true;
}

/* Decodes the JSON string at `string` (a span starting at its quote) into out, NUL-terminated.
   Returns false when it is not a string, is malformed, or does not fit in `capacity` bytes.
   A lone surrogate decodes to U+FFFD. An embedded \u0000 is refused (callers want C strings). */
static bool json_decode_string(json_span string, char *out, size_t capacity) {
    const char *p = string.start, *end = string.end;
    size_t length = 0;
    if (capacity == 0 || p >= end || *p != '"') return false;
    for (p++; p < end && *p != '"'; p++) {
        unsigned long cp;
        if (*p != '\\') {
            if (length + 1 >= capacity) return false;
            out[length++] = *p;
            continue;
        }
        if (++p >= end) return false;
        switch (*p) {
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u': {
            long unit = end - p >= 5 ? json_hex4(p + 1) : -1;
            if (unit < 0) return false;
            p += 4;
            cp = (unsigned long)unit;
            if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 7 && p[1] == '\\' && p[2] == 'u') {
                long low = json_hex4(p + 3);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)low - 0xDC00);
                    p += 6;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            if (cp == 0) return false;
            break;
        }
        default: return false;
        }
        if (!json_put_utf8(cp, out, capacity, &length)) return false;
    }
    if (p >= end) return false;
    out[length] = '\0';
    return true;
}

/* Finds member `key` of the object at `object` (leading space allowed). On success stores the value's
   span in *value and returns true; false when the text is not an object, is malformed before the
   member, or has no such member. */
static bool json_find_member(json_span object, const char *key, json_span *value) {
    const char *p = json_skip_space(object.start, object.end), *end = object.end;
    if (p >= end || *p != '{') return false;
    p = json_skip_space(p + 1, end);
    if (p < end && *p == '}') return false;
    for (;;) {
        json_span key_span = {json_skip_space(p, end), NULL};
        key_span.end = json_skip_string(key_span.start, end);
        if (!key_span.end) return false;
        p = json_skip_space(key_span.end, end);
        if (p >= end || *p != ':') return false;
        const char *value_start = json_skip_space(p + 1, end);
        const char *value_end = json_skip_value(value_start, end, 1);
        if (!value_end) return false;
        char name[JSON_MAX_KEY];
        if (json_decode_string(key_span, name, sizeof name) && strcmp(name, key) == 0) {
            value->start = value_start;
            value->end = value_end;
            return true;
        }
        p = json_skip_space(value_end, end);
        if (p >= end || *p != ',') return false;
        p++;
    }
}

/* Finds string member `key` of `object` and decodes it into out. */
static bool json_string_member(json_span object, const char *key, char *out, size_t capacity) {
    json_span value;
    return json_find_member(object, key, &value) && json_decode_string(value, out, capacity);
}

/* ------------------------------------------------------------------------------------------------
 * Building JSON: a growable buffer, and strings written with proper escaping.
 * ---------------------------------------------------------------------------------------------- */

typedef struct buffer {
    char *data;
    size_t length, capacity;
    bool failed; /* an allocation failed; the contents are incomplete */
} buffer;

static void buffer_append(buffer *b, const char *bytes, size_t count) {
    if (b->failed) return;
    if (b->length + count + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 128;
        while (capacity < b->length + count + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) { b->failed = true; return; }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, count);
    b->length += count;
    b->data[b->length] = '\0';
}

static void buffer_append_text(buffer *b, const char *text) { buffer_append(b, text, strlen(text)); }

/* Appends `text` as a JSON string literal: quotes, backslashes and control characters escaped;
   everything else (UTF-8 included) copied as is. */
static void buffer_append_json_string(buffer *b, const char *text) {
    buffer_append(b, "\"", 1);
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        char escaped[8];
        switch (c) {
        case '"': buffer_append(b, "\\\"", 2); break;
        case '\\': buffer_append(b, "\\\\", 2); break;
        case '\n': buffer_append(b, "\\n", 2); break;
        case '\r': buffer_append(b, "\\r", 2); break;
        case '\t': buffer_append(b, "\\t", 2); break;
        default:
            if (c < 0x20) {
                snprintf(escaped, sizeof escaped, "\\u%04x", c);
                buffer_append_text(b, escaped);
            } else {
                buffer_append(b, p, 1);
            }
        }
    }
    buffer_append(b, "\"", 1);
}

/* ------------------------------------------------------------------------------------------------
 * The plugin.
 * ---------------------------------------------------------------------------------------------- */

/* The host's table, kept by the entry point; owned by the host and valid until the process exits. */
static const strada_host_api_v1 *host_api;

static strada_string borrowed(const char *text) {
    strada_string s = {text, (uint64_t)strlen(text)};
    return s;
}

static void log_line(strada_log_level level, const char *format, ...) {
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    if (host_api) host_api->log(host_api, level, borrowed(line));
}

static const char *status_name(strada_status status) {
    switch (status) {
    case STRADA_OK: return "ok";
    case STRADA_ERR_INVALID_ARGUMENT: return "invalid argument";
    case STRADA_ERR_NOT_FOUND: return "not found";
    case STRADA_ERR_GONE: return "the page is gone";
    case STRADA_ERR_WRONG_THREAD: return "wrong thread";
    default: return "failed";
    }
}

/* The plugin's handle for one instance: the header leaves this struct for the plugin to define. */
struct strada_plugin_instance {
    strada_host_instance *host_instance;
    char *connect_id; /* id of the last connect message (owned copy), or NULL */
    long count;
};

static strada_plugin_instance *create_instance(void *context, const char *component_name,
                                               strada_host_instance *host_instance) {
    (void)context;
    if (!component_name || strcmp(component_name, COMPONENT_NAME) != 0 || !host_instance) return NULL;
    strada_plugin_instance *instance = calloc(1, sizeof *instance);
    if (!instance) {
        log_line(STRADA_LOG_ERROR, "out of memory creating a %s instance", COMPONENT_NAME);
        return NULL;
    }
    instance->host_instance = host_instance;
    return instance;
}

static void show_button(strada_plugin_instance *instance, const char *title) {
    strada_button_v1 button;
    memset(&button, 0, sizeof button); /* reserved bytes must be zero */
    button.struct_size = sizeof button;
    button.placement = STRADA_PLACEMENT_END;
    button.id = borrowed(BUTTON_ID);
    button.title = borrowed(title);
    button.icon_name = borrowed("");
    button.enabled = 1;
    button.style = STRADA_BUTTON_STYLE_SUGGESTED;
    strada_status status = host_api->set_button(host_api, instance->host_instance, &button);
    if (status != STRADA_OK) log_line(STRADA_LOG_WARNING, "set_button refused: %s (%d)", status_name(status), (int)status);
}

static void handle_connect(strada_plugin_instance *instance, json_span message, const char *id) {
    char *copy = malloc(strlen(id) + 1);
    if (!copy) {
        log_line(STRADA_LOG_ERROR, "out of memory keeping connect #%s", id);
        return;
    }
    strcpy(copy, id);
    free(instance->connect_id);
    instance->connect_id = copy;

    char title[128] = "Count";
    json_span data;
    if (json_find_member(message, "data", &data) && !json_string_member(data, "title", title, sizeof title)) {
        strcpy(title, "Count"); /* absent, not a string, or too long: keep the default */
    }
    if (title[0] == '\0') strcpy(title, "Count");
    show_button(instance, title);
}

static void handle_disconnect(strada_plugin_instance *instance) {
    free(instance->connect_id);
    instance->connect_id = NULL;
    strada_status status = host_api->remove_button(host_api, instance->host_instance, borrowed(BUTTON_ID));
    if (status != STRADA_OK && status != STRADA_ERR_GONE) {
        log_line(STRADA_LOG_WARNING, "remove_button refused: %s (%d)", status_name(status), (int)status);
    }
}

static void receive(strada_plugin_instance *instance, strada_string message_json) {
    if (!instance || !message_json.data) return;
    json_span message = {message_json.data, message_json.data + message_json.length};
    const char *after = json_skip_value(message.start, message.end, 0);
    char id[64], event[64];
    if (!after || json_skip_space(after, message.end) != message.end) {
        log_line(STRADA_LOG_WARNING, "ignored a message that is not valid JSON");
        return;
    }
    if (!json_string_member(message, "id", id, sizeof id) ||
        !json_string_member(message, "event", event, sizeof event)) {
        log_line(STRADA_LOG_WARNING, "ignored a message without a readable id and event");
        return;
    }
    if (strcmp(event, "connect") == 0) handle_connect(instance, message, id);
    else if (strcmp(event, "disconnect") == 0) handle_disconnect(instance);
    else log_line(STRADA_LOG_DEBUG, "ignored event \"%s\" (#%s)", event, id);
}

/* Replies to the last connect with {"count": n}. */
static void send_count(strada_plugin_instance *instance) {
    buffer json = {0};
    char number[32];
    snprintf(number, sizeof number, "%ld", instance->count);
    buffer_append_text(&json, "{\"id\":");
    buffer_append_json_string(&json, instance->connect_id);
    buffer_append_text(&json, ",\"component\":");
    buffer_append_json_string(&json, COMPONENT_NAME);
    buffer_append_text(&json, ",\"event\":\"connect\",\"data\":{\"count\":");
    buffer_append_text(&json, number);
    buffer_append_text(&json, "}}");
    if (json.failed) {
        log_line(STRADA_LOG_ERROR, "out of memory building the reply");
    } else {
        strada_string text = {json.data, (uint64_t)json.length};
        strada_status status = host_api->reply(host_api, instance->host_instance, text);
        if (status == STRADA_ERR_GONE) log_line(STRADA_LOG_INFO, "count %ld not sent: the page is gone", instance->count);
        else if (status != STRADA_OK) log_line(STRADA_LOG_ERROR, "reply refused: %s (%d)", status_name(status), (int)status);
    }
    free(json.data);
}

static void control_activated(strada_plugin_instance *instance, strada_string control_id) {
    if (!instance || !control_id.data || control_id.length != strlen(BUTTON_ID) ||
        memcmp(control_id.data, BUTTON_ID, control_id.length) != 0) {
        return;
    }
    if (!instance->connect_id) {
        log_line(STRADA_LOG_WARNING, "button pressed before any connect message; nothing to reply to");
        return;
    }
    instance->count++;
    send_count(instance);
}

static void destroy_instance(strada_plugin_instance *instance) {
    if (!instance) return;
    free(instance->connect_id);
    free(instance);
}

static const char *const component_names[] = {COMPONENT_NAME};

static const strada_plugin_v1 plugin = {
    .struct_size = sizeof(strada_plugin_v1),
    .abi_major = STRADA_PLUGIN_ABI_MAJOR,
    .abi_minor = STRADA_PLUGIN_ABI_MINOR,
    .component_count = 1,
    .plugin_id = "dev.example.counter-c",
    .plugin_version = "1.0.0",
    .component_names = component_names,
    .plugin_context = NULL,
    .create_instance = create_instance,
    .receive = receive,
    .lifecycle = NULL,
    .control_activated = control_activated,
    .destroy_instance = destroy_instance,
    .shutdown = NULL, /* no threads, nothing global to release */
    .get_extension = NULL,
};

/* The host table must reach at least up to remove_button, the last function this plugin calls. */
#define HOST_FIELDS_USED (offsetof(strada_host_api_v1, remove_button) + sizeof(((strada_host_api_v1 *)0)->remove_button))

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    if (!host || !out_plugin) return STRADA_ERR_INVALID_ARGUMENT;
    if (host->abi_major != STRADA_PLUGIN_ABI_MAJOR || host->struct_size < HOST_FIELDS_USED || !host->log ||
        !host->reply || !host->set_button || !host->remove_button) {
        return STRADA_ERR_INVALID_ARGUMENT; /* cannot even log safely */
    }
    host_api = host;
    *out_plugin = &plugin;
    return STRADA_OK;
}
