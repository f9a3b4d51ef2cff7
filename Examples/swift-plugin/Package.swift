// swift-tools-version:6.0
// A third-party Strada component plugin in Swift, built as its own package against the SDK.
//
//   swift build --package-path Examples/swift-plugin -c release
//   cp Examples/swift-plugin/.build/release/libGreetingPlugin.so ~/.local/share/strada/plugins/
import PackageDescription

let package = Package(
    name: "GreetingPlugin",
    products: [
        // A plugin is a dynamic library: strada-host loads it with dlopen.
        .library(name: "GreetingPlugin", type: .dynamic, targets: ["GreetingPlugin"])
    ],
    dependencies: [
        // Strada for Linux (this repository). Outside it, point `path:` at your checkout.
        .package(name: "StradaLinux", path: "../..")
    ],
    targets: [
        .target(
            name: "GreetingPlugin",
            dependencies: [
                .product(name: "StradaPluginSDK", package: "StradaLinux"),
                .product(name: "StradaCore", package: "StradaLinux"),
            ]
        )
    ]
)
