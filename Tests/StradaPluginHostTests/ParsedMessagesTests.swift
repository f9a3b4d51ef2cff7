import CStradaPlugin
import Foundation
import Logging
import StradaCore
import TestSupport
import Testing

@testable import StradaPluginHost

/// The parsed-messages extension ("dev.strada.parsed-messages/1"): a plugin that offers it gets each message
/// with its members read by the host; one that does not gets the text. A C plugin records what arrived.
@MainActor
@Suite(.serialized, .temporaryDirectories)
struct ParsedMessagesTests {
    /// Records the last delivery as text (`test_last_delivery`): "receive:<json>" for the text path, or
    /// "message:" and the flags and members of strada_message_v1 separated by '|'.
    static func plugin(offeringTheExtension: Bool) -> String {
        """
        #include "strada_plugin.h"
        #include <stdio.h>
        #include <string.h>
        static char last[4096];
        const char *test_last_delivery(void) { return last; }
        static const char *names[] = {"probe"};
        static strada_plugin_instance *create(void *context, const char *name, strada_host_instance *host) {
            (void)context; (void)name; return (strada_plugin_instance *)host;
        }
        static void receive(strada_plugin_instance *instance, strada_string json) {
            (void)instance; snprintf(last, sizeof last, "receive:%.*s", (int)json.length, json.data);
        }
        #define S(s) (int)(s).length, (s).data
        static void receive_message(strada_plugin_instance *instance, const strada_message_v1 *m) {
            (void)instance;
            snprintf(last, sizeof last, "message:%u|%.*s|%.*s|%.*s|%.*s|%.*s|%.*s", m->flags, S(m->wire_json),
                     S(m->id), S(m->component), S(m->event), S(m->data_json), S(m->metadata_url));
        }
        static const strada_parsed_messages_v1 parsed = {sizeof(strada_parsed_messages_v1), 0, receive_message};
        static const void *extension(void *context, const char *id) {
            (void)context;
            return \(offeringTheExtension ? 1 : 0) && strcmp(id, STRADA_PARSED_MESSAGES_EXTENSION_V1) == 0
                ? &parsed : 0;
        }
        static void destroy(strada_plugin_instance *instance) { (void)instance; }
        static const strada_plugin_v1 plugin = {
            sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1,
            "dev.test.probe", "0.1.0", names, 0, create, receive, 0, 0, destroy, 0, extension };
        STRADA_PLUGIN_ENTRY_V1_DEFINE { (void)host; *out_plugin = &plugin; return STRADA_OK; }
        """
    }

    final class Page: BridgeDestination {}

    /// Loads the probe plugin, delivers `wire` to a fresh instance and returns what the plugin recorded.
    func deliver(_ wire: String, offeringTheExtension: Bool) throws -> String {
        let directory = try TemporaryDirectory.make("probe")
        let path = (directory as NSString).appendingPathComponent("libprobe.so")
        try CCompiler.sharedLibrary(Self.plugin(offeringTheExtension: offeringTheExtension), at: path)
        let report = PluginLoader(logger: Logger(label: "test")).load(directories: [directory])
        let plugin = try #require(report.plugins.first, "\(report.errors)")
        let page = Page()
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: page, components: plugin.registrations)
        let component = try #require(plugin.registrations.first).make(page, delegate)
        defer { component.destroy() }
        component.deliver(try Message(wireText: wire))
        let library = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        defer { dlclose(library) }
        typealias Reader = @convention(c) () -> UnsafePointer<CChar>
        let reader = unsafeBitCast(try #require(dlsym(library, "test_last_delivery")), to: Reader.self)
        return String(cString: reader())
    }

    @Test func membersArriveDecodedWithTheTextAsThePageSentIt() throws {
        let wire =
            #"{"id":"a\"b","component":"probe","event":"p\u00e9","data":{"x":[1, 2],"#
            + #""metadata":{"url":"https:\/\/app.test\/"}},"extra":true}"#
        let data = #"{"x":[1, 2],"metadata":{"url":"https:\/\/app.test\/"}}"#
        #expect(
            try deliver(wire, offeringTheExtension: true)
                == "message:1|\(wire)|a\"b|probe|pé|\(data)|https://app.test/")
    }

    @Test(arguments: [
        (#"{"id":"1","component":"probe","event":"e"}"#, "{}"),
        (#"{"id":"1","component":"probe","event":"e","data":null}"#, "{}"),
        (#"{"id":"1","component":"probe","event":"e","data":{"metadata":{"url":7}}}"#, #"{"metadata":{"url":7}}"#),
        (#"{"id":"1","component":"probe","event":"e","data":{"metadata":"x"}}"#, #"{"metadata":"x"}"#),
    ])
    func withoutAStringURLTheFlagIsClearAndDataIsAnObject(wire: String, data: String) throws {
        #expect(try deliver(wire, offeringTheExtension: true) == "message:0|\(wire)|1|probe|e|\(data)|")
    }

    @Test func aPluginWithoutTheExtensionGetsTheText() throws {
        let wire = #"{"id":"1","component":"probe","event":"e","data":{"metadata":{"url":"https://app.test/"}}}"#
        #expect(try deliver(wire, offeringTheExtension: false) == "receive:\(wire)")
    }
}
