import Foundation

/// Skeletons for `strada-host plugin new <name> --lang swift|c|rust`: a buildable plugin with one component
/// and its own passing test. The component answers `connect {name}` with
/// `{"greeting": "Hello, <name>!", "presses": 0}` and shows a header-bar button, Greet, whose every press
/// replies to that connect again with `presses` counted; `disconnect` removes the button. That is each host
/// call the guide teaches (reply, reply to an event, set and remove a button) and a control press; replace
/// it with your own behaviour.
///
/// - Swift: a package (path dependency on the SDK's Swift package) with a dynamic library product and a
///   Swift Testing target that drives the component through `StradaTesting`. `swift build`, `swift test`.
/// - C: a C11 plugin against the SDK's `strada_plugin.h` and `strada_json.h` only, and a test program that
///   loads the built `.so` with `dlopen` like the host does, with a fake host table. `make`, `make test`.
/// - Rust: a cargo package with the standard library only (the ABI's bindings and a small JSON value in
///   their own modules) and a test against a fake host table. `cargo build`, `cargo test`.
///
/// The templates are real files, `SDK/templates/<language>/` and `SDK/templates/index.html`, written for a
/// component named `hello-world` and compiled in (`EmbeddedFiles.txt`); see `SDK/templates/README.md`.
package enum PluginTemplates {
    package enum Language: String, CaseIterable, Sendable {
        case swift, c, rust
    }

    /// The files of a new plugin for component `name` (e.g. "share-sheet"), relative to the new project's
    /// folder, building against `sdk` (absolute paths, or relative to the new project's folder).
    package static func files(name: String, language: Language, sdk: PluginSDK) -> [(path: String, contents: String)] {
        let names = Names(name)
        let folder = "\(root)/\(language.rawValue)/"
        return EmbeddedFiles.all.compactMap { file in
            let path: String
            if file.path.hasPrefix(folder) {
                path = String(file.path.dropFirst(folder.count))
            } else if file.path == "\(root)/index.html" {
                path = "index.html"
            } else {
                return nil
            }
            // Names first: the SDK's paths are the user's and may contain "hello-world".
            let contents = located(sdk, in: names.substituted(for: sample, in: file.text))
            return (names.substituted(for: sample, in: path), contents)
        }
    }

    /// What to run in the new project, for the last line `plugin new` prints.
    package static func nextSteps(_ language: Language) -> String {
        switch language {
        case .swift: "swift build && swift test"
        case .c: "make && make test"
        case .rust: "cargo build --offline && cargo test --offline"
        }
    }

    /// Where the templates are, relative to the package root.
    static let root = "SDK/templates"

    /// The component name the templates are written for.
    static let sample = Names("hello-world")

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

        /// `text` with each spelling of `sample` replaced by the same spelling of this name.
        func substituted(for sample: Names, in text: String) -> String {
            text.replacingOccurrences(of: sample.component, with: component)
                .replacingOccurrences(of: sample.type, with: type)
                .replacingOccurrences(of: sample.snake, with: snake)
        }
    }

    /// The templates' relative paths into the checkout they live in, each one's replacement for `sdk`.
    static func located(_ sdk: PluginSDK, in text: String) -> String {
        text.replacingOccurrences(of: #"path: "../../..""#, with: #"path: "\#(swiftLiteral(sdk.swiftPackage))""#)
            .replacingOccurrences(
                of: "STRADA_INCLUDE ?= ../../CStradaPlugin/include",
                with: "STRADA_INCLUDE ?= \(makeLiteral(sdk.cHeaders))"
            )
            .replacingOccurrences(
                of: #"src="../web/strada.js""#, with: #"src="\#(htmlAttribute("\(sdk.web)/strada.js"))""#)
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
}
