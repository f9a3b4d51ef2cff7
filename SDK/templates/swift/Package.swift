// swift-tools-version:6.0
// The `hello-world` Strada component plugin.
//   swift build -c release   → .build/release/libHelloWorldPlugin.so
//   swift test               → runs Tests/HelloWorldPluginTests
import PackageDescription

let package = Package(
    name: "HelloWorldPlugin",
    products: [
        // A dynamic library: strada-host loads it with dlopen from a plugins directory.
        .library(name: "HelloWorldPlugin", type: .dynamic, targets: ["HelloWorldPlugin"])
    ],
    dependencies: [
        .package(name: "StradaLinux", path: "../../..")
    ],
    targets: [
        .target(
            name: "HelloWorldPlugin",
            dependencies: [
                .product(name: "StradaPluginSDK", package: "StradaLinux"),
                .product(name: "StradaCore", package: "StradaLinux"),
            ]
        ),
        .testTarget(
            name: "HelloWorldPluginTests",
            dependencies: [
                "HelloWorldPlugin",
                .product(name: "StradaCore", package: "StradaLinux"),
                .product(name: "StradaTesting", package: "StradaLinux"),
            ]
        ),
    ]
)
