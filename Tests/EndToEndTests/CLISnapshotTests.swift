import Foundation
import TestSupport
import Testing

/// The command line's output, compared with snapshots (the binary is run for real).
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct CLISnapshotTests {
    @Test func helpListsTheSubcommands() throws {
        try CLISnapshot.check("help", ["--help"])
        try CLISnapshot.check("plugin-help", ["plugin", "--help"])
    }

    @Test func pluginNewCreatesACSkeletonWhoseOwnTestPasses() throws {
        let parent = try PluginsDirectory.make(plugins: [])
        let target = (parent as NSString).appendingPathComponent("share-sheet")
        try CLISnapshot.check(
            "plugin-new-c",
            ["plugin", "new", "share-sheet", "--lang", "c", "--output", target, "--sdk", Repository.root.path],
            replacing: [parent: "$PARENT", Repository.root.path: "$REPO"])
        let make = try ProcessRunner.runBlocking("make", ["-C", target, "test"])
        #expect(make.status == 0, "make test: \(make.stdout)\(make.stderr)")
    }

    @Test func pluginNewRefusesAnExistingFolder() throws {
        let parent = try PluginsDirectory.make(plugins: [])
        try CLISnapshot.check(
            "plugin-new-exists", ["plugin", "new", "x", "--output", parent, "--sdk", Repository.root.path],
            replacing: [parent: "$PARENT", Repository.root.path: "$REPO"])
    }

    @Test func runRefusesAPageThatDoesNotExist() throws {
        try CLISnapshot.check("run-missing-page", ["run", "/nonexistent/page.html"])
    }

    @Test func pluginListShowsEachFileWithWhatItDeclaresOrWhyNot() throws {
        let plugins = try PluginsDirectory.make()
        try "not a plugin".write(
            toFile: (plugins as NSString).appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try CLISnapshot.check(
            "plugin-list", ["plugin", "list", "--plugins", plugins], replacing: [plugins: "$PLUGINS"])
        try CLISnapshot.check(
            "plugin-list-json", ["plugin", "list", "--json", "--plugins", plugins], replacing: [plugins: "$PLUGINS"])
    }

    @Test func aPluginThatCrashesWhileLoadingIsReportedByListWithItsName() throws {
        let plugins = try PluginsDirectory.make()
        try CCompiler.sharedLibrary(
            """
            #include <stdlib.h>
            #include "strada_plugin.h"
            STRADA_PLUGIN_ENTRY_V1_DEFINE { (void)host; (void)out_plugin; abort(); }
            """, at: (plugins as NSString).appendingPathComponent("libcrashes.so"))
        try CLISnapshot.check(
            "plugin-list-crash", ["plugin", "list", "--plugins", plugins], replacing: [plugins: "$PLUGINS"])
    }

    @Test func pluginInspectShowsWhatAPluginDeclares() throws {
        let plugins = try PluginsDirectory.make()
        let file = (plugins as NSString).appendingPathComponent("libStradaFormPlugin.so")
        try CLISnapshot.check("plugin-inspect", ["plugin", "inspect", file], replacing: [plugins: "$PLUGINS"])
    }

    @Test func installListRemoveRoundTrip() throws {
        let source = try PluginsDirectory.make()
        let target = (try PluginsDirectory.make(plugins: []) as NSString).appendingPathComponent("installed")
        let replacements = [source: "$SOURCE", target: "$TARGET"]
        try CLISnapshot.check(
            "plugin-install", ["plugin", "install", source, "--plugins", target], replacing: replacements)
        try CLISnapshot.check(
            "plugin-list-installed", ["plugin", "list", "--plugins", target], replacing: replacements)
        let manifest = try String(
            contentsOfFile: (target as NSString).appendingPathComponent("libStradaFormPlugin.json"), encoding: .utf8)
        #expect(manifest.contains(#""id":"dev.strada.form""#) && manifest.contains(#""sha256":""#))
        try CLISnapshot.check(
            "plugin-remove", ["plugin", "remove", "dev.strada.form", "--plugins", target], replacing: replacements)
        try CLISnapshot.check("plugin-list-empty", ["plugin", "list", "--plugins", target], replacing: replacements)
        try CLISnapshot.check(
            "plugin-remove-missing", ["plugin", "remove", "dev.strada.form", "--plugins", target],
            replacing: replacements)
    }

    @Test func installRefusesAFolderWithAnInvalidFileAndCopiesNothing() throws {
        let source = try PluginsDirectory.make()
        try "not a plugin".write(
            toFile: (source as NSString).appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let target = (try PluginsDirectory.make(plugins: []) as NSString).appendingPathComponent("installed")
        try CLISnapshot.check(
            "plugin-install-invalid", ["plugin", "install", source, "--plugins", target],
            replacing: [source: "$SOURCE", target: "$TARGET"])
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
