/* A test plugin in C for the hot-reload tests: component "hot". On "connect" it shows a header-bar button
   titled VERSION; pressing it replies to the connect message with {"version": VERSION}. Built with
   -DVERSION="\"v1\"" or "\"v2\"" to tell generations apart. Compiled after plugin-support.c. */

#ifndef VERSION
#define VERSION "v0"
#endif

static void receive(strada_plugin_instance *plugin_instance, strada_string json) {
    instance *self = (instance *)plugin_instance;
    char event[32];
    if (!json_string(json, "event", event, sizeof event) || strcmp(event, "connect") != 0) return;
    if (!json_string(json, "id", self->connect_id, sizeof self->connect_id)) return;
    strada_button_v1 button;
    memset(&button, 0, sizeof button);
    button.struct_size = sizeof button;
    button.placement = STRADA_PLACEMENT_END;
    button.id = str("go");
    button.title = str(VERSION);
    button.icon_name = str("");
    button.enabled = 1;
    the_host->set_button(the_host, self->host_instance, &button);
}

/* Replies through reply_to_event: the host knows the connect message's id, no JSON to write but the data. */
static void control_activated(strada_plugin_instance *plugin_instance, strada_string control_id) {
    (void)control_id;
    instance *self = (instance *)plugin_instance;
    the_host->reply_to_event(the_host, self->host_instance, str("connect"), str("{\"version\":\"" VERSION "\"}"));
}

/* Both log, so tests can see the ABI's order: every instance destroyed before its plugin's shutdown. */
static void destroy(strada_plugin_instance *plugin_instance) {
    the_host->log(the_host, STRADA_LOG_INFO, str("hot " VERSION ": destroy_instance"));
    free(plugin_instance);
}

static void shutdown(void *plugin_context) {
    (void)plugin_context;
    the_host->log(the_host, STRADA_LOG_INFO, str("hot " VERSION ": shutdown"));
}

static const char *names[] = {"hot"};
static const strada_plugin_v1 plugin = {
    sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1, "dev.test.hot", VERSION, names, 0,
    create, receive, 0, control_activated, destroy, shutdown, 0};

static int loads;  /* static state: a fresh image starts at 0 */

STRADA_PLUGIN_ENTRY_V1_DEFINE {
    the_host = host;
    loads += 1;
    host->log(host, STRADA_LOG_INFO, str(loads == 1 ? "hot " VERSION ": entry, fresh image" : "hot " VERSION ": entry again"));
    *out_plugin = &plugin;
    return STRADA_OK;
}
