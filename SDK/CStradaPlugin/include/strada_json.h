/*
 * strada_json.h — optional: reading and writing the JSON messages of a Strada plugin in C, without a tree
 * and without allocation. Header-only (`static inline`); nothing here crosses the ABI, so use it or not.
 *
 *   strada_json_span message = {message_json.data, message_json.data + message_json.length};
 *   char event[64];
 *   if (strada_json_is_valid(message) && strada_json_string_member(message, "event", event, sizeof event)) …
 *
 * Reading walks the text of one object to find a member by key, then decodes string values. It handles any
 * valid JSON (nested objects and arrays skipped correctly, every string escape including \uXXXX and
 * surrogate pairs, numbers, literals). Limits, on purpose:
 *  - nesting deeper than STRADA_JSON_MAX_DEPTH is malformed;
 *  - numbers are accepted by their character set; raw bytes are not checked for UTF-8 (the host only
 *    hands over valid UTF-8);
 *  - strada_json_find_member checks structure only as far as it walks: check the whole message first
 *    with strada_json_is_valid;
 *  - a key longer than STRADA_JSON_MAX_KEY - 1 bytes never matches; duplicate keys: the first one wins;
 *  - a decoded string containing \u0000 is refused (callers want C strings); a lone surrogate decodes to
 *    U+FFFD.
 *
 * Writing goes into a buffer the caller owns; every write is bounds-checked and
 * strada_json_writer_ok says at the end whether everything fitted.
 *
 * Every function is pure (no globals, no allocation) and may be called on any thread.
 * Compiles cleanly as C11 and C++17 with -Wall -Wextra -pedantic -Werror.
 */
#ifndef STRADA_JSON_H
#define STRADA_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STRADA_JSON_MAX_DEPTH 64
#define STRADA_JSON_MAX_KEY 64

/* A piece of JSON text: [start, end). Borrowed from whoever owns the text. */
typedef struct strada_json_span {
    const char *start; /* first byte of a value (for a string: its opening quote) */
    const char *end;   /* one past its last byte */
} strada_json_span;

/* Returns the first byte at or after `p` that is not JSON whitespace, or `end`. */
static inline const char *strada_json_skip_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* Reads the 4 hex digits at `p`. Returns their value, or -1 when fewer than 4 bytes are left before `end`
   or one is not a hex digit. */
static inline long strada_json_hex4(const char *p, const char *end) {
    long value = 0;
    if (end - p < 4) return -1;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int digit = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    return value;
}

/* `p` points at a string's opening quote. Returns one past its closing quote, or NULL when it is not a
   string or is malformed (unterminated, a raw control character, a bad escape). */
static inline const char *strada_json_skip_string(const char *p, const char *end) {
    if (p >= end || *p != '"') return NULL;
    for (p++; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') return p + 1;
        if (c < 0x20) return NULL; /* control characters must be escaped */
        if (c == '\\') {
            if (++p >= end) return NULL;
            if (*p == 'u') {
                if (strada_json_hex4(p + 1, end) < 0) return NULL;
                p += 4;
            } else if (*p == '\0' || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return NULL; /* unterminated */
}

/* Skips one value of any kind (leading whitespace allowed) nested `depth` levels deep (0 at the top).
   Returns one past it, or NULL when it is malformed or nests deeper than STRADA_JSON_MAX_DEPTH. */
static inline const char *strada_json_skip_value(const char *p, const char *end, int depth) {
    p = strada_json_skip_space(p, end);
    if (p >= end) return NULL;
    if (*p == '"') return strada_json_skip_string(p, end);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        if (depth >= STRADA_JSON_MAX_DEPTH) return NULL;
        p = strada_json_skip_space(p + 1, end);
        if (p < end && *p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                p = strada_json_skip_string(strada_json_skip_space(p, end), end);
                if (!p || (p = strada_json_skip_space(p, end)) >= end || *p != ':') return NULL;
                p++;
            }
            if (!(p = strada_json_skip_value(p, end, depth + 1))) return NULL;
            p = strada_json_skip_space(p, end);
            if (p >= end) return NULL;
            if (*p == close) return p + 1;
            if (*p++ != ',') return NULL;
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

/* Whether `text` is exactly one JSON value, with optional whitespace around it. */
static inline bool strada_json_is_valid(strada_json_span text) {
    const char *after = strada_json_skip_value(text.start, text.end, 0);
    return after && strada_json_skip_space(after, text.end) == text.end;
}

/* Decodes the string at `value` (a span starting at its opening quote) into `out`, NUL-terminated.
   Returns false when it is not a string, is malformed, contains \u0000, or needs more than `capacity`
   bytes (NUL included); `out` then holds no useful text. */
static inline bool strada_json_decode_string(strada_json_span value, char *out, size_t capacity) {
    const char *p = value.start, *end = value.end;
    size_t n = 0;
    if (capacity == 0 || p >= end || *p != '"') return false;
    for (p++; p < end && *p != '"'; p++) {
        if (*p != '\\') {
            if (n + 1 >= capacity) return false;
            out[n++] = *p;
            continue;
        }
        if (++p >= end) return false;
        unsigned long cp;
        switch (*p) {
        case '"': case '\\': case '/': cp = (unsigned char)*p; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u': {
            long unit = strada_json_hex4(p + 1, end), low = -1;
            if (unit < 0) return false;
            p += 4;
            if (end - p > 6 && p[1] == '\\' && p[2] == 'u') low = strada_json_hex4(p + 3, end);
            cp = (unsigned long)unit;
            if (cp >= 0xD800 && cp <= 0xDBFF && low >= 0xDC00 && low <= 0xDFFF) { /* a surrogate pair */
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)low - 0xDC00);
                p += 6;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            if (cp == 0) return false;
            break;
        }
        default: return false;
        }
        /* Encode cp as UTF-8, keeping room for the NUL. */
        static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
        unsigned char bytes[4];
        size_t count = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        for (size_t i = count - 1; i > 0; i--, cp >>= 6) bytes[i] = (unsigned char)(0x80 | (cp & 0x3F));
        bytes[0] = (unsigned char)(lead[count] | cp);
        if (n + count >= capacity) return false;
        memcpy(out + n, bytes, count);
        n += count;
    }
    if (p >= end) return false;
    out[n] = '\0';
    return true;
}

/* Finds member `key` (NUL-terminated) of the object at `object` (leading whitespace allowed). Stores the
   span of its value in *value and returns true; false when `object` is not an object, is malformed before
   the member, or has no such member (*value is then untouched). */
static inline bool strada_json_find_member(strada_json_span object, const char *key, strada_json_span *value) {
    const char *p = strada_json_skip_space(object.start, object.end), *end = object.end;
    if (p >= end || *p != '{') return false;
    p = strada_json_skip_space(p + 1, end);
    while (p < end && *p != '}') {
        strada_json_span name = {strada_json_skip_space(p, end), NULL};
        if (!(name.end = strada_json_skip_string(name.start, end))) return false;
        p = strada_json_skip_space(name.end, end);
        if (p >= end || *p != ':') return false;
        strada_json_span found = {strada_json_skip_space(p + 1, end), NULL};
        if (!(found.end = strada_json_skip_value(found.start, end, 1))) return false;
        char decoded[STRADA_JSON_MAX_KEY];
        if (strada_json_decode_string(name, decoded, sizeof decoded) && strcmp(decoded, key) == 0) {
            *value = found;
            return true;
        }
        p = strada_json_skip_space(found.end, end);
        if (p >= end || *p != ',') return false;
        p = strada_json_skip_space(p + 1, end);
    }
    return false;
}

/* Finds string member `key` of `object` and decodes it into `out` (see strada_json_decode_string).
   False when there is no such member, it is not a string, or it does not fit. */
static inline bool strada_json_string_member(strada_json_span object, const char *key, char *out,
                                             size_t capacity) {
    strada_json_span value;
    return strada_json_find_member(object, key, &value) && strada_json_decode_string(value, out, capacity);
}

/* Writing JSON into a buffer the caller owns: `strada_json_writer out = {buffer, sizeof buffer, 0};`.
   After every write that fitted, `buffer` holds `length` bytes of text and a NUL. */
typedef struct strada_json_writer {
    char *buffer;
    size_t capacity; /* bytes in buffer, NUL included */
    size_t length;   /* bytes written; > capacity once something did not fit (later writes do nothing) */
} strada_json_writer;

/* Appends `count` bytes as they are. */
static inline void strada_json_write_bytes(strada_json_writer *w, const char *bytes, size_t count) {
    if (w->length + count < w->capacity) {
        memcpy(w->buffer + w->length, bytes, count);
        w->buffer[w->length + count] = '\0';
        w->length += count;
    } else {
        w->length = w->capacity + 1;
    }
}

/* Appends NUL-terminated `text` as it is: JSON syntax the caller wrote, e.g. "{\"id\":". */
static inline void strada_json_write_raw(strada_json_writer *w, const char *text) {
    strada_json_write_bytes(w, text, strlen(text));
}

/* Appends NUL-terminated `text` as a JSON string: quotes, backslashes and control characters escaped,
   everything else (UTF-8 included) copied as it is. */
static inline void strada_json_write_string(strada_json_writer *w, const char *text) {
    strada_json_write_bytes(w, "\"", 1);
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        char escaped[8];
        switch (c) {
        case '"': strada_json_write_bytes(w, "\\\"", 2); break;
        case '\\': strada_json_write_bytes(w, "\\\\", 2); break;
        case '\n': strada_json_write_bytes(w, "\\n", 2); break;
        case '\r': strada_json_write_bytes(w, "\\r", 2); break;
        case '\t': strada_json_write_bytes(w, "\\t", 2); break;
        default:
            if (c < 0x20) {
                snprintf(escaped, sizeof escaped, "\\u%04x", c);
                strada_json_write_bytes(w, escaped, 6);
            } else {
                strada_json_write_bytes(w, p, 1);
            }
        }
    }
    strada_json_write_bytes(w, "\"", 1);
}

/* Whether everything written so far fitted; the buffer then holds the whole text, NUL-terminated. */
static inline bool strada_json_writer_ok(const strada_json_writer *w) {
    return w->capacity > 0 && w->length < w->capacity;
}

#ifdef __cplusplus
}
#endif

#endif /* STRADA_JSON_H */
