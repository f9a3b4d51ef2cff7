// swift-tools-version:6.0
// The Swift plugin SDK as the Debian package installs it, <prefix>/share/strada/swift-sdk (scripts/package):
// this manifest, with the five modules' sources beside it in the same folders as in the repository. A plugin
// package built against the installed host depends on it by path (what `strada-host plugin new --lang swift`
// writes), so no checkout is needed. The modules and their settings are the repository's own (Package.swift).
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "StradaLinux",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "StradaCore", targets: ["StradaCore"]),
        .library(name: "StradaPluginSDK", targets: ["StradaPluginSDK"]),
        .library(name: "StradaTesting", targets: ["StradaTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2")
    ],
    targets: [
        .target(
            name: "StradaCore", dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Sources/StradaCore", swiftSettings: strictSwift),
        .target(
            name: "StradaTesting", dependencies: ["StradaCore", .product(name: "Logging", package: "swift-log")],
            path: "Sources/StradaTesting", swiftSettings: strictSwift),
        .target(name: "CStradaPlugin", path: "SDK/CStradaPlugin"),
        .target(name: "StradaABI", dependencies: ["CStradaPlugin"], path: "SDK/StradaABI", swiftSettings: strictSwift),
        .target(
            name: "StradaPluginSDK", dependencies: ["StradaCore", "CStradaPlugin", "StradaABI"],
            path: "SDK/StradaPluginSDK", swiftSettings: strictSwift),
    ]
)
