// swift-tools-version:6.0
// libFuzzer target for the inbound message path (parse → validate → route → component → reply encoding).
// Build and run: scripts/fuzz [seconds]   (swift build --sanitize=fuzzer needs this separate package:
// the fuzzer executable has no main of its own).
import PackageDescription

let package = Package(
    name: "StradaFuzz",
    dependencies: [.package(name: "StradaLinux", path: "..")],
    targets: [
        .executableTarget(
            name: "BridgeFuzzer",
            dependencies: [
                .product(name: "StradaCore", package: "StradaLinux"),
                .product(name: "StradaTesting", package: "StradaLinux"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
