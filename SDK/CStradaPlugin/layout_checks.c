/* Pins the ABI 1 struct layouts (x86_64/aarch64 LP64): every field's offset and every struct's size, in every
 * header. A change here is an ABI break: bump the major. A later minor only appends fields: it adds pins and
 * leaves these as they are, and the STRADA_*_MIN_SIZE_1_0 constants stay ABI 1.0's sizes.
 * Compiles as C11 and as C++17 (the strict-flags test builds it both ways); Tests/StradaPluginHostTests
 * mirrors the same numbers with MemoryLayout. */
#include "strada_controls.h"
#include "strada_plugin.h"
#include "strada_screens.h"

#ifdef __cplusplus
#define STRADA_STATIC_ASSERT static_assert
#else
#define STRADA_STATIC_ASSERT _Static_assert
#endif

#define PIN_SIZE(type, size) STRADA_STATIC_ASSERT(sizeof(type) == (size), #type " size changed: ABI break")
#define PIN_OFFSET(type, field, offset) \
    STRADA_STATIC_ASSERT(offsetof(type, field) == (offset), #type "." #field " moved: ABI break")
/* ABI 1.0's size: the struct as 1.0 shipped it ends where its last 1.0 field ends. */
#define PIN_MIN_SIZE(type, constant, last_field)                                                        \
    STRADA_STATIC_ASSERT(offsetof(type, last_field) + sizeof(((type *)0)->last_field) == (constant) && \
                             sizeof(type) >= (constant),                                                \
                         #constant " is not ABI 1.0's size of " #type)

PIN_SIZE(strada_string, 16);
PIN_OFFSET(strada_string, data, 0);
PIN_OFFSET(strada_string, length, 8);

PIN_SIZE(strada_button_v1, 64);
PIN_OFFSET(strada_button_v1, struct_size, 0);
PIN_OFFSET(strada_button_v1, placement, 4);
PIN_OFFSET(strada_button_v1, id, 8);
PIN_OFFSET(strada_button_v1, title, 24);
PIN_OFFSET(strada_button_v1, icon_name, 40);
PIN_OFFSET(strada_button_v1, enabled, 56);
PIN_OFFSET(strada_button_v1, style, 57);
PIN_OFFSET(strada_button_v1, reserved, 58);
PIN_SIZE(strada_button_style, 1);
PIN_MIN_SIZE(strada_button_v1, STRADA_BUTTON_V1_MIN_SIZE_1_0, reserved);

PIN_SIZE(strada_host_api_v1, 88);
PIN_OFFSET(strada_host_api_v1, struct_size, 0);
PIN_OFFSET(strada_host_api_v1, abi_major, 4);
PIN_OFFSET(strada_host_api_v1, abi_minor, 8);
PIN_OFFSET(strada_host_api_v1, reserved, 12);
PIN_OFFSET(strada_host_api_v1, host_context, 16);
PIN_OFFSET(strada_host_api_v1, reply, 24);
PIN_OFFSET(strada_host_api_v1, log, 32);
PIN_OFFSET(strada_host_api_v1, codec_settings_json, 40);
PIN_OFFSET(strada_host_api_v1, run_on_main_thread, 48);
PIN_OFFSET(strada_host_api_v1, set_button, 56);
PIN_OFFSET(strada_host_api_v1, remove_button, 64);
PIN_OFFSET(strada_host_api_v1, get_extension, 72);
PIN_OFFSET(strada_host_api_v1, reply_to_event, 80);
PIN_MIN_SIZE(strada_host_api_v1, STRADA_HOST_API_V1_MIN_SIZE_1_0, reply_to_event);

PIN_SIZE(strada_plugin_v1, 104);
PIN_OFFSET(strada_plugin_v1, struct_size, 0);
PIN_OFFSET(strada_plugin_v1, abi_major, 4);
PIN_OFFSET(strada_plugin_v1, abi_minor, 8);
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
PIN_MIN_SIZE(strada_plugin_v1, STRADA_PLUGIN_V1_MIN_SIZE_1_0, get_extension);

PIN_SIZE(strada_controls_v1, 24);
PIN_OFFSET(strada_controls_v1, struct_size, 0);
PIN_OFFSET(strada_controls_v1, reserved, 4);
PIN_OFFSET(strada_controls_v1, show, 8);
PIN_OFFSET(strada_controls_v1, remove, 16);
PIN_MIN_SIZE(strada_controls_v1, STRADA_CONTROLS_V1_MIN_SIZE_1_0, remove);

PIN_SIZE(strada_control_events_v1, 16);
PIN_OFFSET(strada_control_events_v1, struct_size, 0);
PIN_OFFSET(strada_control_events_v1, reserved, 4);
PIN_OFFSET(strada_control_events_v1, control_event, 8);
PIN_MIN_SIZE(strada_control_events_v1, STRADA_CONTROL_EVENTS_V1_MIN_SIZE_1_0, control_event);

PIN_SIZE(strada_message_v1, 104);
PIN_OFFSET(strada_message_v1, struct_size, 0);
PIN_OFFSET(strada_message_v1, flags, 4);
PIN_OFFSET(strada_message_v1, wire_json, 8);
PIN_OFFSET(strada_message_v1, id, 24);
PIN_OFFSET(strada_message_v1, component, 40);
PIN_OFFSET(strada_message_v1, event, 56);
PIN_OFFSET(strada_message_v1, data_json, 72);
PIN_OFFSET(strada_message_v1, metadata_url, 88);
PIN_MIN_SIZE(strada_message_v1, STRADA_MESSAGE_V1_MIN_SIZE_1_0, metadata_url);

PIN_SIZE(strada_parsed_messages_v1, 16);
PIN_OFFSET(strada_parsed_messages_v1, struct_size, 0);
PIN_OFFSET(strada_parsed_messages_v1, reserved, 4);
PIN_OFFSET(strada_parsed_messages_v1, receive_message, 8);
PIN_MIN_SIZE(strada_parsed_messages_v1, STRADA_PARSED_MESSAGES_V1_MIN_SIZE_1_0, receive_message);

PIN_SIZE(strada_gtk_handles_v1, 32);
PIN_OFFSET(strada_gtk_handles_v1, struct_size, 0);
PIN_OFFSET(strada_gtk_handles_v1, reserved, 4);
PIN_OFFSET(strada_gtk_handles_v1, window, 8);
PIN_OFFSET(strada_gtk_handles_v1, header_bar, 16);
PIN_OFFSET(strada_gtk_handles_v1, web_view, 24);
PIN_MIN_SIZE(strada_gtk_handles_v1, STRADA_GTK_HANDLES_V1_MIN_SIZE_1_0, web_view);

PIN_SIZE(strada_screens_v1, 32);
PIN_OFFSET(strada_screens_v1, struct_size, 0);
PIN_OFFSET(strada_screens_v1, screen_count, 4);
PIN_OFFSET(strada_screens_v1, screen_names, 8);
PIN_OFFSET(strada_screens_v1, create_screen, 16);
PIN_OFFSET(strada_screens_v1, destroy_screen, 24);
PIN_MIN_SIZE(strada_screens_v1, STRADA_SCREENS_V1_MIN_SIZE_1_0, destroy_screen);
