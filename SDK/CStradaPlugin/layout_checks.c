/* Pins the ABI 1 struct layouts (x86_64/aarch64 LP64). A change here is an ABI break: bump the major. */
#include "strada_plugin.h"

#define PIN_SIZE(type, size) _Static_assert(sizeof(type) == (size), #type " size changed: ABI break")
#define PIN_OFFSET(type, field, offset) \
    _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved: ABI break")

PIN_SIZE(strada_string, 16);
PIN_OFFSET(strada_string, length, 8);

PIN_SIZE(strada_button_v1, 64);
PIN_OFFSET(strada_button_v1, placement, 4);
PIN_OFFSET(strada_button_v1, id, 8);
PIN_OFFSET(strada_button_v1, title, 24);
PIN_OFFSET(strada_button_v1, icon_name, 40);
PIN_OFFSET(strada_button_v1, enabled, 56);
PIN_OFFSET(strada_button_v1, style, 57);

PIN_SIZE(strada_host_api_v1, 88);
PIN_OFFSET(strada_host_api_v1, host_context, 16);
PIN_OFFSET(strada_host_api_v1, reply, 24);
PIN_OFFSET(strada_host_api_v1, log, 32);
PIN_OFFSET(strada_host_api_v1, codec_settings_json, 40);
PIN_OFFSET(strada_host_api_v1, run_on_main_thread, 48);
PIN_OFFSET(strada_host_api_v1, set_button, 56);
PIN_OFFSET(strada_host_api_v1, remove_button, 64);
PIN_OFFSET(strada_host_api_v1, get_extension, 72);
PIN_OFFSET(strada_host_api_v1, reply_to_event, 80);

PIN_SIZE(strada_plugin_v1, 104);
PIN_OFFSET(strada_plugin_v1, component_count, 12);
PIN_OFFSET(strada_plugin_v1, plugin_id, 16);
PIN_OFFSET(strada_plugin_v1, plugin_version, 24);
PIN_OFFSET(strada_plugin_v1, component_names, 32);
PIN_OFFSET(strada_plugin_v1, plugin_context, 40);
PIN_OFFSET(strada_plugin_v1, create_instance, 48);
PIN_OFFSET(strada_plugin_v1, receive, 56);
PIN_OFFSET(strada_plugin_v1, lifecycle, 64);
PIN_OFFSET(strada_plugin_v1, control_activated, 72);
PIN_OFFSET(strada_plugin_v1, destroy_instance, 80);
PIN_OFFSET(strada_plugin_v1, shutdown, 88);
PIN_OFFSET(strada_plugin_v1, get_extension, 96);

#include "strada_controls.h"
PIN_SIZE(strada_controls_v1, 24);
PIN_OFFSET(strada_controls_v1, show, 8);
PIN_OFFSET(strada_controls_v1, remove, 16);
PIN_SIZE(strada_control_events_v1, 16);
PIN_OFFSET(strada_control_events_v1, control_event, 8);
PIN_SIZE(strada_gtk_handles_v1, 32);
PIN_OFFSET(strada_gtk_handles_v1, web_view, 24);
