import Foundation
import TestSupport
import Testing

@testable import StradaPluginHost

/// The `plugin new` templates are real files under SDK/templates, compiled in: what is compiled in is what is
/// on disk, and the generator leaves no trace of the sample name or of the templates' own relative paths.
struct TemplateFilesTests {
    static let root = Repository.root

    @Test func everyCompiledInTemplateIsTheFileOnDisk() throws {
        let templates = EmbeddedFiles.all.filter { $0.path.hasPrefix(PluginTemplates.root + "/") }
        #expect(templates.count >= 10)
        for file in templates {
            let onDisk = try String(contentsOf: Self.root.appendingPathComponent(file.path), encoding: .utf8)
            #expect(file.text == onDisk, "\(file.path) changed on disk: rebuild")
        }
    }

    /// The SDK path deliberately contains the sample name: the generator must not rename it.
    @Test(arguments: PluginTemplates.Language.allCases)
    func generatedFilesKeepNoTraceOfTheSampleNameOrTheTemplatePaths(language: PluginTemplates.Language) {
        let sdk = PluginSDK.installed(prefix: "/opt/hello-world")
        let files = PluginTemplates.files(name: "share-sheet", language: language, sdk: sdk)
        #expect(files.contains { $0.path == "index.html" })
        for file in files {
            let text = file.path + "\n" + file.contents.replacingOccurrences(of: "/opt/hello-world", with: "")
            for trace in ["hello-world", "HelloWorld", "hello_world", "../../..", "../web/strada.js", "../../CStrada"] {
                #expect(!text.contains(trace), "\(file.path) still contains \(trace)")
            }
        }
        let all = files.map(\.contents).joined()
        #expect(all.contains("\(sdk.web)/strada.js"), "the page loads the SDK's strada.js")
        switch language {
        case .swift: #expect(all.contains(#"path: "\#(sdk.swiftPackage)""#), "the package depends on the SDK's")
        case .c: #expect(all.contains("STRADA_INCLUDE ?= \(sdk.cHeaders)"), "the Makefile includes the SDK's headers")
        case .rust: #expect(!all.contains(sdk.cHeaders) && !all.contains(sdk.swiftPackage), "Rust needs only the page")
        }
    }
}

/// `strada_json.h`, the SDK's optional JSON helpers for C plugins: clean as C11 and C++17, and right.
@Suite(.temporaryDirectories)
struct StradaJSONHeaderTests {
    static let include = CCompiler.includeDirectory

    static let program = #"""
        #include "strada_json.h"
        #include <stdio.h>
        #define CHECK(c) do { if (!(c)) { printf("FAILED line %d: %s\n", __LINE__, #c); return 1; } } while (0)
        int main(void) {
            const char *t = "{\"id\":\"7\", \"skip\":[1,{\"a\":null},true], "
                            "\"data\":{\"name\":\"Ada \\\"C\\\" \\ud83d\\ude00 \\u00e9\\n\"}}";
            strada_json_span message = {t, t + strlen(t)}, data;
            char name[64], id[4], tiny[4];
            CHECK(strada_json_is_valid(message));
            CHECK(strada_json_string_member(message, "id", id, sizeof id) && strcmp(id, "7") == 0);
            CHECK(strada_json_find_member(message, "data", &data));
            CHECK(strada_json_string_member(data, "name", name, sizeof name));
            CHECK(strcmp(name, "Ada \"C\" \xf0\x9f\x98\x80 \xc3\xa9\n") == 0);
            CHECK(!strada_json_string_member(data, "name", tiny, sizeof tiny));
            CHECK(!strada_json_find_member(message, "missing", &data));
            const char *bad = "{\"id\":";
            strada_json_span broken = {bad, bad + strlen(bad)};
            CHECK(!strada_json_is_valid(broken));
            char buffer[32];
            strada_json_writer out = {buffer, sizeof buffer, 0};
            strada_json_write_raw(&out, "{\"s\":");
            strada_json_write_string(&out, "a\"\n\x01");
            strada_json_write_raw(&out, "}");
            CHECK(strada_json_writer_ok(&out) && strcmp(buffer, "{\"s\":\"a\\\"\\n\\u0001\"}") == 0);
            strada_json_write_raw(&out, "more than the rest of the buffer holds");
            CHECK(!strada_json_writer_ok(&out));
            printf("ok\n");
            return 0;
        }
        """#

    @Test(arguments: [("cc", ["-std=c11", "-x", "c"]), ("c++", ["-std=c++17", "-x", "c++"])])
    func compilesCleanAndReadsAndWritesJSON(compiler: String, flags: [String]) throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("strada-json"))
        let source = directory.appendingPathComponent("check.c").path
        let binary = directory.appendingPathComponent("check").path
        try Self.program.write(toFile: source, atomically: true, encoding: .utf8)
        let strict = ["-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Self.include]
        #expect(try Self.run(compiler, flags + strict + [source, "-o", binary]).status == 0)
        let result = try Self.run(binary, [])
        #expect(result.status == 0 && result.output == "ok\n", "\(compiler): \(result.output)")
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.runBlocking(tool, arguments, streams: .merged)
        return (result.status, result.stdout)
    }
}
