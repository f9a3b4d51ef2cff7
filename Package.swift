// swift-tools-version:6.0
// Strada for Linux: native controls driven by your web app, on WebKitGTK, with components as dlopen plugins.
import PackageDescription

#if os(Linux)
import Foundation
#endif

/// Start-up: the dynamic loader resolves each symbol relocation by walking the loaded libraries in order, and
/// one of WebKit's ~200 dependencies on Debian, its speech voice `libflite_cmu_time_awb`, binds 31,000
/// references to its own symbols from ~70 libraries down that list. The host names it among its own
/// libraries, so it is loaded ~35th and each walk is half as long: `strada-host --help` takes 78 → 67 ms of
/// CPU, nearly all of it the loader's. Named only where the file is.
let earlyLibraries: [LinkerSetting] = {
    #if os(Linux)
    let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
    let voices = folders.map { $0 + "/libflite_cmu_time_awb.so.1" }
    guard let voice = voices.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return [] }
    return [.unsafeFlags(["-Xlinker", "--no-as-needed", "-Xlinker", voice])]
    #else
    return []
    #endif
}()

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The first-party components, each built as its own shared library from `Plugins/<Name>/`.
let firstPartyPlugins = [
    "Form", "Menu", "OverflowMenu", "Button", "Alert", "Toast", "Page", "Search", "Share", "Theme",
]

/// Each first-party plugin is two targets: the component, a library of its own that the unit tests link (every
/// plugin's entry point has one C name, so two plugins cannot be linked into one binary), and the plugin, its
/// entry point (`Plugins/<Name>/Export/`). Runtime component plugins, not SwiftPM package plugins.
let firstPartyPluginTargets: [Target] = firstPartyPlugins.flatMap { name -> [Target] in
    let component = Target.target(
        name: "Strada\(name)Component", dependencies: ["StradaCore"], path: "Plugins/\(name)",
        exclude: ["manifest.json", "Export"],  // the manifest goes beside the library (docs/plugins.md)
        swiftSettings: strictSwift)
    let dependencies: [Target.Dependency] = ["StradaPluginSDK", "StradaCore", .target(name: "Strada\(name)Component")]
    let plugin = Target.target(
        name: "Strada\(name)Plugin", dependencies: dependencies, path: "Plugins/\(name)/Export",
        swiftSettings: strictSwift)
    return [component, plugin]
}

/// What the first-party components' unit tests link: every component, and the test doubles.
let pluginTestDependencies: [Target.Dependency] =
    ["StradaCore", "StradaTesting"] + firstPartyPlugins.map { .target(name: "Strada\($0)Component") }

let package = Package(
    name: "StradaLinux",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "strada-host", targets: ["StradaHostCLI"]),
        // The host's helper, installed beside it: plugin probes and isolation workers, without GTK (PluginHelper).
        .executable(name: "strada-plugin-worker", targets: ["StradaPluginWorker"]),
        .executable(name: "strada-bench", targets: ["StradaBench"]),
        .library(name: "StradaCore", targets: ["StradaCore"]),
        .library(name: "StradaPluginSDK", targets: ["StradaPluginSDK"]),
        .library(name: "StradaTesting", targets: ["StradaTesting"]),
        // Runtime component plugins: each one its own shared library, loaded by the host with dlopen.
    ] + firstPartyPlugins.map { .library(name: "Strada\($0)Plugin", type: .dynamic, targets: ["Strada\($0)Plugin"]) }
        + [
            // Benchmark-only plugin: replies to every message with the message itself.
            .library(name: "StradaEchoPlugin", type: .dynamic, targets: ["StradaEchoPlugin"])
        ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SHA-256 of plugin files (manifest checksums); signatures will use its Ed25519 (issue 24).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `swift package generate-documentation` for the DocC catalogs (scripts/docs); no code depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Bridge core: Message, JSON, BridgeComponent, BridgeDelegate, Bridge, Strada.config. No GTK.
        .target(
            name: "StradaCore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        // Shipped test doubles: an in-memory web view and recording spies.
        .target(
            name: "StradaTesting",
            dependencies: ["StradaCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        // The C ABI contract between the host and component plugins (headers only + layout checks).
        .target(name: "CStradaPlugin", path: "SDK/CStradaPlugin"),
        // The Swift side of the ABI's conventions, shared by the host and the Swift SDK.
        .target(name: "StradaABI", dependencies: ["CStradaPlugin"], path: "SDK/StradaABI", swiftSettings: strictSwift),
        // What a Swift plugin author imports: adapts BridgeComponent subclasses to the C ABI.
        .target(
            name: "StradaPluginSDK",
            dependencies: ["StradaCore", "CStradaPlugin", "StradaABI"],
            path: "SDK/StradaPluginSDK",
            swiftSettings: strictSwift
        ),
        // WebKitGTK 6.0 + GTK 4: the only GTK code.
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkitgtk-6.0 libadwaita-1",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]
        ),
        // The navigator: screens, stacks, Turbo visits, path configuration and routing, as plain Swift. No GTK:
        // the engine implements its window protocol, and unit tests a double of it.
        .target(
            name: "StradaNavigation",
            dependencies: ["StradaCore", "StradaAutomation", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .target(
            name: "StradaEngineGTK",
            dependencies: [
                "StradaCore", "StradaNavigation", "CWebKitGTK", .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["EmbeddedFiles.txt"],  // the page scripts of SDK/web, compiled in by EmbedFiles
            swiftSettings: strictSwift,
            plugins: ["EmbedFiles"]
        ),
        // libffi: calls into plugin actions by the signature their manifest declares.
        .systemLibrary(name: "CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        // Plugin discovery, dlopen, validation and the host side of the C ABI.
        // The automation protocol: every event, every command and the isolation worker's messages.
        .target(name: "StradaAutomation", dependencies: ["StradaCore"], swiftSettings: strictSwift),
        // The host's fatal-signal handler that names the plugin call a crash happened in (async-signal-safe C).
        .target(name: "CStradaCrash"),
        .target(
            name: "StradaPluginHost",
            dependencies: [
                "StradaCore", "StradaAutomation", "CStradaPlugin", "StradaABI", "CFFI", "CStradaCrash",
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["EmbeddedFiles.txt"],  // the `plugin new` templates (SDK/templates), compiled in by EmbedFiles
            swiftSettings: strictSwift,
            plugins: ["EmbedFiles"]
        ),
        // The host session: plugins, window, screens and navigator, automation; what `strada-host run` runs.
        .target(
            name: "StradaHost",
            dependencies: [
                "StradaCore", "StradaAutomation", "StradaNavigation", "StradaEngineGTK", "StradaPluginHost",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The thin executable: parses arguments, wires the libraries together, prints.
        .executableTarget(
            name: "StradaHostCLI",
            dependencies: [
                "StradaCore", "StradaHost", "StradaPluginHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift,
            linkerSettings: earlyLibraries
        ),
        // `strada-plugin-worker`: probes and isolation workers start this, not the host, so the dynamic loader maps
        // StradaPluginHost's few libraries instead of WebKitGTK's ~200. Must never depend on GTK.
        .executableTarget(name: "StradaPluginWorker", dependencies: ["StradaPluginHost"], swiftSettings: strictSwift),
    ]
        + firstPartyPluginTargets + [
            // The first-party components' unit tests: BridgeHarness and recorded controls, as a template's.
            .testTarget(name: "StradaPluginsTests", dependencies: pluginTestDependencies),
            .target(
                name: "StradaEchoPlugin",
                dependencies: ["StradaPluginSDK", "StradaCore"],
                path: "Benchmarks/EchoPlugin",
                swiftSettings: strictSwift
            ),
            // `strada-bench`: engine-free measurements (core dispatch, the C-ABI crossing, plugin loading).
            .executableTarget(
                name: "StradaBench",
                dependencies: [
                    "StradaCore", "StradaTesting", "StradaPluginHost", .product(name: "Logging", package: "swift-log"),
                ],
                path: "Benchmarks/CoreBenchmark",
                swiftSettings: strictSwift
            ),
            .testTarget(
                name: "StradaCoreTests",
                dependencies: ["StradaCore", "StradaTesting", .product(name: "Logging", package: "swift-log")]
            ),
            .testTarget(name: "StradaEngineGTKTests", dependencies: ["StradaEngineGTK", "StradaCore", "CWebKitGTK"]),
            .testTarget(
                name: "StradaAutomationTests", dependencies: ["StradaAutomation", "StradaCore", "TestSupport"]),
            .testTarget(
                name: "StradaPluginHostTests",
                dependencies: [
                    "StradaPluginHost", "StradaCore", "CStradaPlugin", "CStradaCrash", "TestSupport",
                    .product(name: "Crypto", package: "swift-crypto"),
                ]
            ),
            .testTarget(
                name: "StradaHostTests",
                dependencies: ["StradaHost", "StradaCore", "StradaEngineGTK", "StradaNavigation"]),
            .testTarget(
                name: "StradaNavigationTests",
                dependencies: [
                    "StradaNavigation", "StradaCore", "StradaAutomation", "StradaTesting",
                    .product(name: "Logging", package: "swift-log"),
                ]
            ),
            .testTarget(
                name: "EndToEndTests", dependencies: ["TestSupport", "StradaAutomation", "StradaCore"],
                exclude: ["Fixtures", "Snapshots"]),
            // What the test targets share: the repository root, the real host driven through its automation
            // channel, one process runner, the C compiler, a local HTTP server, temporary folders removed per test.
            .target(
                name: "TestSupport", dependencies: ["StradaAutomation", "StradaCore"], path: "Tests/TestSupport",
                swiftSettings: strictSwift),
            // Build time only (SwiftPM package plugins; runtime component plugins are in Plugins/): compiles the
            // files a target lists in its EmbeddedFiles.txt into it as strings, so the installed binary needs no
            // checkout. One more embedded file is one more line in that list.
            .executableTarget(name: "EmbedFilesTool", path: "BuildPlugins/EmbedFilesTool", swiftSettings: strictSwift),
            .plugin(
                name: "EmbedFiles",
                capability: .buildTool(),
                dependencies: ["EmbedFilesTool"],
                path: "BuildPlugins/EmbedFiles"
            ),
        ]
)
