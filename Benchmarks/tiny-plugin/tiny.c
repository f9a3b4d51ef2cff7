/* The smallest plugin, for the start-up bench (scripts/benchkit/sections/startup.py): the bench installs many
   copies of it, libtiny<N>.so each with a manifest libtiny<N>.json. Each copy names its one component after its
   own file ("tiny<N>", found with dladdr), so what a copy declares matches its manifest. Messages are ignored. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "strada_plugin.h"

static char name[65] = "tiny";
static char id[160] = "dev.bench.tiny";
static const char *names[] = {name};

static strada_plugin_instance *create(void *context, const char *component, strada_host_instance *host_instance) {
    (void)context; (void)component; (void)host_instance;
    return (strada_plugin_instance *)calloc(1, 1);
}

static void receive(strada_plugin_instance *instance, strada_string json) { (void)instance; (void)json; }

static void destroy(strada_plugin_instance *instance) { free(instance); }

static strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, id, "1.0.0", names, 0,
    create, receive, 0, 0, destroy, 0, 0};

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    (void)host;
    Dl_info info;
    /* "…/libtiny17.so" → component "tiny17", id "dev.bench.tiny17". */
    if (dladdr((void *)&plugin, &info) && info.dli_fname) {
        const char *base = strrchr(info.dli_fname, '/');
        base = base ? base + 1 : info.dli_fname;
        if (strncmp(base, "lib", 3) == 0) base += 3;
        size_t length = strcspn(base, ".");
        if (length > 0 && length < sizeof name) {
            memcpy(name, base, length);
            name[length] = 0;
            strcpy(id, "dev.bench.");
            strcat(id, name);
        }
    }
    *out_plugin = &plugin;
    return STRADA_OK;
}
