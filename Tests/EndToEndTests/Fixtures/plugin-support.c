/* What the C test plugins share (hot-plugin.c, sandbox-probe-plugin.c): the host table, an instance that keeps its
   host handle, `str`, and a test-grade scanner for flat JSON. Tests put this text before a plugin's own
   (CCompiler.sharedLibrary(CCompiler.fixturePluginSupport + source, …)). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strada_plugin.h"

static const strada_host_api_v1 *the_host;

typedef struct instance {
    strada_host_instance *host_instance;
    char connect_id[64];
} instance;

static strada_plugin_instance *create(void *context, const char *name, strada_host_instance *host_instance) {
    (void)context; (void)name;
    instance *self = calloc(1, sizeof(instance));
    if (self) self->host_instance = host_instance;
    return (strada_plugin_instance *)self;
}

/* Copies the string value of "key" out of a flat JSON text (test-grade scanner: no escapes in values). */
static int json_string(strada_string json, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    char text[4096];
    size_t n = json.length < sizeof text - 1 ? (size_t)json.length : sizeof text - 1;
    memcpy(text, json.data, n);
    text[n] = 0;
    char *start = strstr(text, pattern);
    if (!start) return 0;
    start += strlen(pattern);
    char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = 0;
    return 1;
}

static strada_string str(const char *text) {
    strada_string s = {text, strlen(text)};
    return s;
}
