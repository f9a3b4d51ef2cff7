import Foundation
import PackagePlugin

/// A SwiftPM build-tool plugin (build time only; the runtime component plugins live in `Plugins/`): compiles
/// repository files into the module that uses it, so the installed binary needs no checkout at run time.
///
/// The module lists the files in `EmbeddedFiles.txt` at its root, one path relative to the package root per
/// line (`#` starts a comment), and excludes that list in `Package.swift`. The plugin generates an internal
/// `enum EmbeddedFiles` with each file's text; see `BuildPlugins/EmbedFilesTool` for its shape.
/// Embedding one more file is one more line in the list.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        // `Target.directoryURL` needs tools version 6.1; this package is 6.0.
        let directory = URL(fileURLWithPath: String(describing: target.directory), isDirectory: true)
        let list = directory.appending(path: "EmbeddedFiles.txt")
        let paths = try String(contentsOf: list, encoding: .utf8).split(whereSeparator: \.isNewline)
            .map { line in line.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(paths.count) file(s) into \(target.name)",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [output.path, root.path] + paths,
                inputFiles: [list] + paths.map { root.appending(path: $0) },
                outputFiles: [output]
            )
        ]
    }
}
