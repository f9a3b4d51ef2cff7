import Foundation

/// Skeletons for `strada-host plugin new <name> --lang swift|c`: a buildable plugin with one component
/// and its own passing test. The component answers `connect {name}` with `{"greeting": "Hello, <name>!"}`,
/// the smallest complete round trip; replace it with your own behaviour.
///
/// - Swift: a package (path dependency on the SDK) with a dynamic library product and a Swift Testing
///   target that drives the component through `StradaTesting`. `swift build`, `swift test`.
/// - C: a C11 plugin against `strada_plugin.h` only, a small JSON scanner header, and a test program that
///   loads the built `.so` with `dlopen` like the host does. `make`, `make test`.
public enum PluginTemplates {
    public enum Language: String, CaseIterable, Sendable {
        case swift, c
    }

    /// The files of a new plugin for component `name` (e.g. "share-sheet"), relative to the new project's
    /// folder. `sdkPath` is the Strada for Linux checkout (the folder with its `Package.swift`, `SDK/` and
    /// `SDK/web/strada.js`), absolute or relative to the new project's folder.
    public static func files(name: String, language: Language, sdkPath: String) -> [(path: String, contents: String)] {
        let names = Names(name)
        switch language {
        case .swift: return swiftFiles(names, sdkPath: sdkPath)
        case .c: return cFiles(names, sdkPath: sdkPath)
        }
    }

    /// The spellings of one component name.
    struct Names {
        /// The component name the page uses, e.g. "share-sheet".
        let component: String
        /// An UpperCamelCase identifier, e.g. "ShareSheet".
        let type: String
        /// A snake_case identifier, e.g. "share_sheet".
        let snake: String

        init(_ name: String) {
            let words = name.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
            let safeWords = words.isEmpty ? ["component"] : words
            let startsWithDigit = safeWords[0].first?.isNumber == true
            component = safeWords.joined(separator: "-")
            type = (startsWithDigit ? "C" : "") + safeWords.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            snake = (startsWithDigit ? "c_" : "") + safeWords.joined(separator: "_")
        }
    }

    // MARK: Swift

    static func swiftFiles(_ n: Names, sdkPath: String) -> [(path: String, contents: String)] {
        let plugin = n.type + "Plugin"
        let component = n.type + "Component"
        return [
            ("Package.swift", #"""
                // swift-tools-version:6.0
                // The `\#(n.component)` Strada component plugin.
                //   swift build -c release   → .build/release/lib\#(plugin).so
                //   swift test               → runs Tests/\#(plugin)Tests
                import PackageDescription

                let package = Package(
                    name: "\#(plugin)",
                    products: [
                        // A dynamic library: strada-host loads it with dlopen from a plugins directory.
                        .library(name: "\#(plugin)", type: .dynamic, targets: ["\#(plugin)"]),
                    ],
                    dependencies: [
                        .package(name: "StradaLinux", path: "\#(swiftLiteral(sdkPath))"),
                    ],
                    targets: [
                        .target(
                            name: "\#(plugin)",
                            dependencies: [
                                .product(name: "StradaPluginSDK", package: "StradaLinux"),
                                .product(name: "StradaCore", package: "StradaLinux"),
                            ]
                        ),
                        .testTarget(
                            name: "\#(plugin)Tests",
                            dependencies: [
                                "\#(plugin)",
                                .product(name: "StradaCore", package: "StradaLinux"),
                                .product(name: "StradaTesting", package: "StradaLinux"),
                            ]
                        ),
                    ]
                )

                """#),
            ("Sources/\(plugin)/\(component).swift", #"""
                import StradaCore

                /// The native half of the `\#(n.component)` component.
                ///
                /// Web → native: `connect {name}`. Native → web: a reply to `connect` with `{greeting}`.
                final class \#(component): BridgeComponent {
                    nonisolated override class var name: String { "\#(n.component)" }

                    override func onReceive(message: Message) {
                        guard let event = Event(rawValue: message.event) else { return }
                        switch event {
                        case .connect: handleConnect(message: message)
                        }
                    }

                    // MARK: Private

                    private enum Event: String {
                        case connect
                    }

                    private func handleConnect(message: Message) {
                        guard let data: MessageData = message.data() else { return }
                        reply(to: Event.connect.rawValue, with: ReplyData(greeting: "Hello, \(data.name)!"))
                    }
                }

                // MARK: Message data

                extension \#(component) {
                    struct MessageData: Decodable {
                        let name: String
                    }

                    struct ReplyData: Encodable {
                        let greeting: String
                    }
                }

                """#),
            ("Sources/\(plugin)/Export.swift", #"""
                import StradaPluginSDK

                // The one symbol strada-host looks for. List every component of this plugin here.
                @_cdecl("strada_plugin_entry_v1")
                public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
                    StradaPlugin(id: "com.example.\#(n.component)", version: "0.1.0", components: [\#(component).self])
                        .export(host: host, into: plugin)
                }

                """#),
            ("Tests/\(plugin)Tests/\(component)Tests.swift", #"""
                import StradaCore
                import StradaTesting
                import Testing
                @testable import \#(plugin)

                /// Drives the component through a real `Bridge` and `BridgeDelegate`, with an in-memory web view.
                @MainActor
                struct \#(component)Tests {
                    let page = "https://app.test/"

                    @Test func repliesToConnectWithAGreeting() throws {
                        let webView = InMemoryWebView(url: page)
                        let bridge = Bridge(webView: webView)
                        let destination = TestDestination()
                        let delegate = BridgeDelegate(location: page, destination: destination, componentTypes: [\#(component).self])
                        delegate.webViewDidBecomeActive(bridge)
                        var replies: [Message] = []
                        bridge.observer = { traffic in
                            if case .sent(let message) = traffic { replies.append(message) }
                        }

                        bridge.receive(json: #"{"id":"1","component":"\#(n.component)","event":"connect","data":{"name":"Ada","metadata":{"url":"https://app.test/"}}}"#)

                        let reply = try #require(replies.first)
                        #expect(reply.id == "1")
                        #expect(reply.event == "connect")
                        #expect(reply.dataValue == ["greeting": "Hello, Ada!"])
                    }
                }

                """#),
            ("index.html", page(n, script: "\(sdkPath)/SDK/web/strada.js")),
            ("README.md", #"""
                # \#(n.component)

                A Strada for Linux component plugin in Swift.

                ```sh
                swift test                      # the component's own test
                swift build -c release          # → .build/release/lib\#(plugin).so
                mkdir -p plugins && cp .build/release/lib\#(plugin).so plugins/
                strada-host run index.html --plugins plugins
                ```

                Swift plugins are loaded once and never unloaded; no Swift type crosses into the host.

                """#),
            (".gitignore", ".build/\n/plugins/\n"),
        ]
    }

    // MARK: C

    static func cFiles(_ n: Names, sdkPath: String) -> [(path: String, contents: String)] {
        let library = "lib\(n.snake).so"
        return [
            ("Makefile", """
                # The `\(n.component)` Strada component plugin, in C11 against strada_plugin.h only.
                #   make        → \(library)
                #   make test   → builds it, then loads it with dlopen in test_plugin and checks a reply
                #   make STRADA_SDK=/path/to/strada-linux   (the checkout with SDK/CStradaPlugin/include)

                STRADA_SDK ?= \(makeLiteral(sdkPath))
                CFLAGS ?= -O2 -g
                STRICT = -std=c11 -Wall -Wextra -pedantic -Werror -I$(STRADA_SDK)/SDK/CStradaPlugin/include

                all: \(library)

                # -fvisibility=hidden: only strada_plugin_entry_v1 (STRADA_PLUGIN_EXPORT) is exported.
                \(library): \(n.snake).c json_scan.h
                \t$(CC) $(STRICT) $(CFLAGS) -fPIC -fvisibility=hidden -shared \(n.snake).c -o $@ $(LDFLAGS)

                test_plugin: test_plugin.c
                \t$(CC) $(STRICT) $(CFLAGS) test_plugin.c -o $@ -ldl

                test: \(library) test_plugin
                \t./test_plugin ./\(library)

                clean:
                \trm -f \(library) test_plugin

                .PHONY: all test clean

                """),
            ("\(n.snake).c", #"""
                /*
                 * The `\#(n.component)` Strada component plugin.
                 *
                 * Web → native: connect {name}. Native → web: a reply to that connect with {"greeting": "Hello, <name>!"}.
                 *
                 * Rules (strada_plugin.h): strings from the host are borrowed — copy what you keep; call host
                 * functions on the main thread only (every plugin function below runs there); check every status.
                 */
                #include "strada_plugin.h"
                #include "json_scan.h"

                #include <stdio.h>
                #include <stdlib.h>
                #include <string.h>

                static const strada_host_api_v1 *host_api; /* the host's table, valid until the process exits */

                static void log_text(strada_log_level level, const char *text) {
                    strada_string line = {text, strlen(text)};
                    host_api->log(host_api, level, line);
                }

                /* The plugin defines what its instance handle points to. */
                struct strada_plugin_instance {
                    strada_host_instance *host_instance;
                };

                static strada_plugin_instance *create_instance(void *context, const char *component, strada_host_instance *host_instance) {
                    (void)context;
                    (void)component;
                    strada_plugin_instance *instance = calloc(1, sizeof *instance);
                    if (instance) instance->host_instance = host_instance;
                    return instance; /* NULL: the host logs it and drops the message */
                }

                static void receive(strada_plugin_instance *instance, strada_string message_json) {
                    if (!instance || !message_json.data) return;
                    json_span message = {message_json.data, message_json.data + message_json.length};
                    char id[64], event[64], name[128] = "stranger";
                    if (!json_is_valid(message) || !json_string_member(message, "id", id, sizeof id) ||
                        !json_string_member(message, "event", event, sizeof event)) {
                        log_text(STRADA_LOG_WARNING, "ignored a malformed message");
                        return;
                    }
                    if (strcmp(event, "connect") != 0) return;

                    json_span data;
                    if (json_find_member(message, "data", &data) && !json_string_member(data, "name", name, sizeof name)) {
                        strcpy(name, "stranger");
                    }
                    char greeting[160], reply[512];
                    snprintf(greeting, sizeof greeting, "Hello, %s!", name);
                    json_writer out = {reply, sizeof reply, 0};
                    json_write_raw(&out, "{\"id\":");
                    json_write_string(&out, id);
                    json_write_raw(&out, ",\"component\":\"\#(n.component)\",\"event\":\"connect\",\"data\":{\"greeting\":");
                    json_write_string(&out, greeting);
                    json_write_raw(&out, "}}");
                    if (!json_writer_ok(&out)) {
                        log_text(STRADA_LOG_ERROR, "the reply does not fit its buffer");
                        return;
                    }
                    strada_string text = {reply, out.length};
                    strada_status status = host_api->reply(host_api, instance->host_instance, text);
                    if (status != STRADA_OK) log_text(STRADA_LOG_WARNING, "the host did not accept the reply (page gone?)");
                }

                static void destroy_instance(strada_plugin_instance *instance) {
                    free(instance);
                }

                static const char *const component_names[] = {"\#(n.component)"};

                static const strada_plugin_v1 plugin = {
                    .struct_size = sizeof(strada_plugin_v1),
                    .abi_major = STRADA_PLUGIN_ABI_MAJOR,
                    .abi_minor = STRADA_PLUGIN_ABI_MINOR,
                    .component_count = 1,
                    .plugin_id = "com.example.\#(n.component)",
                    .plugin_version = "0.1.0",
                    .component_names = component_names,
                    .create_instance = create_instance,
                    .receive = receive,
                    .destroy_instance = destroy_instance,
                    /* lifecycle, control_activated, shutdown, get_extension: optional, NULL here */
                };

                STRADA_PLUGIN_ENTRY_V1_DEFINE {
                    if (!host || !out_plugin || host->abi_major != STRADA_PLUGIN_ABI_MAJOR ||
                        host->struct_size < offsetof(strada_host_api_v1, codec_settings_json)) {
                        return STRADA_ERR_INVALID_ARGUMENT; /* the table must cover reply and log, all we call */
                    }
                    host_api = host;
                    *out_plugin = &plugin;
                    return STRADA_OK;
                }

                """#),
            ("json_scan.h", cJSONScanner),
            ("test_plugin.c", #"""
                /*
                 * Loads the plugin like strada-host does (dlopen + strada_plugin_entry_v1) with a fake host
                 * table, creates an instance, sends it a `connect` and checks the reply it gets.
                 * Usage: ./test_plugin ./\#(library)
                 */
                #include "strada_plugin.h"

                #include <dlfcn.h>
                #include <stdio.h>
                #include <string.h>

                static char last_reply[1024];
                static int replies;

                static strada_status fake_reply(const strada_host_api_v1 *host, strada_host_instance *instance, strada_string json) {
                    (void)host;
                    (void)instance;
                    snprintf(last_reply, sizeof last_reply, "%.*s", (int)json.length, json.data);
                    replies++;
                    return STRADA_OK;
                }

                static void fake_log(const strada_host_api_v1 *host, strada_log_level level, strada_string text) {
                    (void)host;
                    fprintf(stderr, "plugin log (%d): %.*s\n", (int)level, (int)text.length, text.data);
                }

                static int failures;
                #define CHECK(condition) \
                    do { if (!(condition)) { fprintf(stderr, "FAILED: %s (line %d)\n", #condition, __LINE__); failures++; } } while (0)

                int main(int argc, char **argv) {
                    if (argc != 2) {
                        fprintf(stderr, "usage: %s ./lib<plugin>.so\n", argv[0]);
                        return 2;
                    }
                    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
                    if (!library) {
                        fprintf(stderr, "dlopen: %s\n", dlerror());
                        return 1;
                    }
                    strada_plugin_entry_v1_fn entry = NULL;
                    void *symbol = dlsym(library, STRADA_PLUGIN_ENTRY_V1);
                    if (symbol) memcpy(&entry, &symbol, sizeof entry); /* ISO C has no object → function pointer cast */
                    CHECK(entry != NULL);
                    if (!entry) return 1;

                    strada_host_api_v1 host = {0};
                    host.struct_size = sizeof host;
                    host.abi_major = STRADA_PLUGIN_ABI_MAJOR;
                    host.abi_minor = STRADA_PLUGIN_ABI_MINOR;
                    host.reply = fake_reply;
                    host.log = fake_log;
                    const strada_plugin_v1 *plugin = NULL;
                    CHECK(entry(&host, &plugin) == STRADA_OK);
                    if (!plugin) return 1;
                    CHECK(plugin->component_count == 1);
                    CHECK(strcmp(plugin->component_names[0], "\#(n.component)") == 0);

                    int page = 0; /* any address works as the fake host instance */
                    strada_plugin_instance *instance = plugin->create_instance(plugin->plugin_context, "\#(n.component)", (strada_host_instance *)&page);
                    CHECK(instance != NULL);
                    if (!instance) return 1;

                    const char *connect = "{\"id\":\"1\",\"component\":\"\#(n.component)\",\"event\":\"connect\","
                                          "\"data\":{\"name\":\"Ada \\\"Countess\\\"\",\"metadata\":{\"url\":\"https://app.test/\"}}}";
                    strada_string message = {connect, strlen(connect)};
                    plugin->receive(instance, message);
                    CHECK(replies == 1);
                    CHECK(strcmp(last_reply, "{\"id\":\"1\",\"component\":\"\#(n.component)\",\"event\":\"connect\","
                                             "\"data\":{\"greeting\":\"Hello, Ada \\\"Countess\\\"!\"}}") == 0);

                    const char *garbage = "{\"id\":";
                    strada_string bad = {garbage, strlen(garbage)};
                    fprintf(stderr, "sending a malformed message; the plugin should log a warning:\n");
                    plugin->receive(instance, bad); /* logged and ignored, never a crash */
                    CHECK(replies == 1);

                    plugin->destroy_instance(instance);
                    if (failures) {
                        fprintf(stderr, "%d check(s) failed; last reply: %s\n", failures, last_reply);
                        return 1;
                    }
                    printf("ok: \#(n.component) replied %s\n", last_reply);
                    return 0;
                }

                """#),
            ("index.html", page(n, script: "\(sdkPath)/SDK/web/strada.js")),
            ("README.md", #"""
                # \#(n.component)

                A Strada for Linux component plugin in C11.

                ```sh
                make test                      # builds \#(library) and checks it replies
                mkdir -p plugins && cp \#(library) plugins/
                strada-host run index.html --plugins plugins
                ```

                `json_scan.h` is a small JSON scanner (read its limits at the top). Never let a crash or a
                longjmp leave a plugin function; check every status a host function returns.

                """#),
            (".gitignore", "*.so\n/test_plugin\n/plugins/\n"),
        ]
    }

    // MARK: Shared

    /// A page with the web half of the component: sends `connect {name}`, shows the greeting as its title.
    static func page(_ n: Names, script: String) -> String {
        #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>\#(n.component)</title>
          <script src="\#(htmlAttribute(script))"></script>
        </head>
        <body data-controller="bridge--\#(n.component)">
          <p id="greeting">Waiting for the native \#(n.component) component…</p>
          <script>
            class \#(n.type)Component extends Strada.BridgeComponent {
              static get component() { return "\#(n.component)"; }
              connect() {
                this.send("connect", { name: "Ada" }, (message) => {
                  document.getElementById("greeting").textContent = message.data.greeting;
                  document.title = message.data.greeting;
                });
              }
            }
            Strada.registerComponent(\#(n.type)Component);
          </script>
        </body>
        </html>

        """#
    }

    static func swiftLiteral(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    static func makeLiteral(_ text: String) -> String {
        text.replacingOccurrences(of: "$", with: "$$").replacingOccurrences(of: " ", with: "\\ ")
    }

    static func htmlAttribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }

    /// `json_scan.h` of the C template: reading members of a JSON object and writing escaped strings,
    /// without a tree and without allocation.
    static let cJSONScanner = #"""
        /*
         * json_scan.h — a small JSON scanner for Strada plugins in C: find a member of an object, decode a
         * string, write an escaped string. No allocation, no tree.
         *
         * Limits (on purpose): nesting deeper than JSON_SCAN_MAX_DEPTH is malformed; numbers are accepted by
         * their character set; raw bytes are not checked for UTF-8 (the host only sends valid UTF-8); a
         * decoded string containing \u0000 is refused; a lone surrogate decodes to U+FFFD; duplicate keys:
         * the first wins; keys longer than 63 bytes never match.
         */
        #ifndef JSON_SCAN_H
        #define JSON_SCAN_H

        #include <stdbool.h>
        #include <stddef.h>
        #include <stdio.h>
        #include <string.h>

        #define JSON_SCAN_MAX_DEPTH 64

        typedef struct json_span {
            const char *start; /* first byte of a value (a string's opening quote) */
            const char *end;   /* one past its last byte */
        } json_span;

        static inline const char *json_skip_space(const char *p, const char *end) {
            while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
            return p;
        }

        static inline long json_hex4(const char *p, const char *end) {
            long value = 0;
            if (end - p < 4) return -1;
            for (int i = 0; i < 4; i++) {
                char c = p[i];
                int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
                if (digit < 0) return -1;
                value = value * 16 + digit;
            }
            return value;
        }

        /* p at '"' → one past the closing quote, or NULL when malformed. */
        static inline const char *json_skip_string(const char *p, const char *end) {
            if (p >= end || *p != '"') return NULL;
            for (p++; p < end; p++) {
                if (*p == '"') return p + 1;
                if ((unsigned char)*p < 0x20) return NULL;
                if (*p == '\\') {
                    if (++p >= end) return NULL;
                    if (*p == 'u') {
                        if (json_hex4(p + 1, end) < 0) return NULL;
                        p += 4;
                    } else if (*p == '\0' || !strchr("\"\\/bfnrt", *p)) {
                        return NULL;
                    }
                }
            }
            return NULL;
        }

        /* Skips one value → one past it, or NULL when malformed. */
        static inline const char *json_skip_value(const char *p, const char *end, int depth) {
            p = json_skip_space(p, end);
            if (p >= end) return NULL;
            if (*p == '"') return json_skip_string(p, end);
            if (*p == '{' || *p == '[') {
                char close = *p == '{' ? '}' : ']';
                if (depth >= JSON_SCAN_MAX_DEPTH) return NULL;
                p = json_skip_space(p + 1, end);
                if (p < end && *p == close) return p + 1;
                for (;;) {
                    if (close == '}') {
                        p = json_skip_string(json_skip_space(p, end), end);
                        if (!p || (p = json_skip_space(p, end)) >= end || *p != ':') return NULL;
                        p++;
                    }
                    if (!(p = json_skip_value(p, end, depth + 1))) return NULL;
                    p = json_skip_space(p, end);
                    if (p >= end) return NULL;
                    if (*p == close) return p + 1;
                    if (*p++ != ',') return NULL;
                }
            }
            const char *words[] = {"true", "false", "null"};
            for (int i = 0; i < 3; i++) {
                size_t n = strlen(words[i]);
                if ((size_t)(end - p) >= n && memcmp(p, words[i], n) == 0) return p + n;
            }
            const char *start = p;
            while (p < end && *p && strchr("+-.0123456789eE", *p)) p++;
            return p > start ? p : NULL;
        }

        /* Whether `text` is exactly one JSON value (surrounded by optional whitespace). */
        static inline bool json_is_valid(json_span text) {
            const char *after = json_skip_value(text.start, text.end, 0);
            return after && json_skip_space(after, text.end) == text.end;
        }

        /* Decodes the string at `value` into out (NUL-terminated). False when it is not a string, is
           malformed, or needs more than `capacity` bytes. */
        static inline bool json_decode_string(json_span value, char *out, size_t capacity) {
            const char *p = value.start, *end = value.end;
            size_t n = 0;
            if (p >= end || *p != '"' || capacity == 0) return false;
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
                    long unit = json_hex4(p + 1, end), low = -1;
                    if (unit < 0) return false;
                    p += 4;
                    if (end - p > 6 && p[1] == '\\' && p[2] == 'u') low = json_hex4(p + 3, end);
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
                /* Encode cp as UTF-8. */
                unsigned char bytes[4];
                size_t count = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
                static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
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

        /* Finds member `key` of the object at `object`; its value's span goes to *value. */
        static inline bool json_find_member(json_span object, const char *key, json_span *value) {
            const char *p = json_skip_space(object.start, object.end), *end = object.end;
            if (p >= end || *p != '{') return false;
            p = json_skip_space(p + 1, end);
            while (p < end && *p != '}') {
                json_span name = {json_skip_space(p, end), NULL};
                if (!(name.end = json_skip_string(name.start, end))) return false;
                p = json_skip_space(name.end, end);
                if (p >= end || *p != ':') return false;
                json_span found = {json_skip_space(p + 1, end), NULL};
                if (!(found.end = json_skip_value(found.start, end, 1))) return false;
                char decoded[64];
                if (json_decode_string(name, decoded, sizeof decoded) && strcmp(decoded, key) == 0) {
                    *value = found;
                    return true;
                }
                p = json_skip_space(found.end, end);
                if (p < end && *p == ',') p = json_skip_space(p + 1, end);
                else break;
            }
            return false;
        }

        /* Finds string member `key` of `object` and decodes it into out. */
        static inline bool json_string_member(json_span object, const char *key, char *out, size_t capacity) {
            json_span value;
            return json_find_member(object, key, &value) && json_decode_string(value, out, capacity);
        }

        /* Writing JSON into a fixed buffer: every write is bounds-checked; json_writer_ok says whether
           everything fitted (the text is then NUL-terminated). */
        typedef struct json_writer {
            char *buffer;
            size_t capacity;
            size_t length; /* > capacity once something did not fit */
        } json_writer;

        static inline void json_write_bytes(json_writer *w, const char *bytes, size_t count) {
            if (w->length + count < w->capacity) {
                memcpy(w->buffer + w->length, bytes, count);
                w->buffer[w->length + count] = '\0';
                w->length += count;
            } else {
                w->length = w->capacity + 1;
            }
        }

        static inline void json_write_raw(json_writer *w, const char *text) { json_write_bytes(w, text, strlen(text)); }

        /* Writes `text` as a JSON string: quotes, backslashes and control characters escaped. */
        static inline void json_write_string(json_writer *w, const char *text) {
            json_write_bytes(w, "\"", 1);
            for (const char *p = text; *p; p++) {
                unsigned char c = (unsigned char)*p;
                char escaped[8];
                if (c == '"' || c == '\\') {
                    escaped[0] = '\\';
                    escaped[1] = (char)c;
                    json_write_bytes(w, escaped, 2);
                } else if (c < 0x20) {
                    snprintf(escaped, sizeof escaped, "\\u%04x", c);
                    json_write_bytes(w, escaped, 6);
                } else {
                    json_write_bytes(w, p, 1);
                }
            }
            json_write_bytes(w, "\"", 1);
        }

        static inline bool json_writer_ok(const json_writer *w) { return w->length <= w->capacity && w->capacity > 0; }

        #endif /* JSON_SCAN_H */

        """#
}
