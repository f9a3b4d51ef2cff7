import StradaPluginHost
import Testing

/// Where `plugin new` finds the SDK a project builds against: the installed host's own prefix, else the
/// checkout it was built in; `--sdk` takes either.
struct PluginSDKTests {
    /// A file system holding exactly `files`.
    static func exists(_ files: Set<String>) -> (String) -> Bool { { files.contains($0) } }

    @Test func anInstalledHostUsesItsOwnPrefix() {
        let exists = Self.exists(["/opt/root/usr/include/strada/strada_plugin.h"])
        let sdk = PluginSDK.of(executable: "/opt/root/usr/bin/strada-host", exists: exists)
        #expect(
            sdk
                == PluginSDK(
                    swiftPackage: "/opt/root/usr/share/strada/swift-sdk", cHeaders: "/opt/root/usr/include/strada",
                    web: "/opt/root/usr/share/strada/web"))
    }

    @Test func aCheckoutBuildUsesTheCheckoutAboveIt() {
        let exists = Self.exists(["/src/strada/SDK/CStradaPlugin/include/strada_plugin.h"])
        let sdk = PluginSDK.of(
            executable: "/src/strada/.build/x86_64-unknown-linux-gnu/debug/strada-host", exists: exists)
        #expect(
            sdk
                == PluginSDK(
                    swiftPackage: "/src/strada", cHeaders: "/src/strada/SDK/CStradaPlugin/include",
                    web: "/src/strada/SDK/web"))
    }

    /// A package unpacked inside a checkout (a test's scratch root) is still the package.
    @Test func theInstalledPrefixWinsOverACheckoutAroundIt() {
        let exists = Self.exists([
            "/src/strada/SDK/CStradaPlugin/include/strada_plugin.h",
            "/src/strada/.build/tmp/root/usr/include/strada/strada_plugin.h",
        ])
        let sdk = PluginSDK.of(executable: "/src/strada/.build/tmp/root/usr/bin/strada-host", exists: exists)
        #expect(sdk == PluginSDK.installed(prefix: "/src/strada/.build/tmp/root/usr"))
    }

    @Test func aHostCopiedWhereNoSDKIsFindsNone() {
        #expect(PluginSDK.of(executable: "/home/ada/bin/strada-host", exists: Self.exists([])) == nil)
    }

    @Test func sdkTakesACheckoutOrAnInstalledPrefix() {
        let exists = Self.exists([
            "/src/strada/SDK/CStradaPlugin/include/strada_plugin.h", "/usr/include/strada/strada_plugin.h",
        ])
        #expect(PluginSDK.at("/src/strada", exists: exists) == PluginSDK.checkout("/src/strada"))
        #expect(PluginSDK.at("/usr", exists: exists) == PluginSDK.installed(prefix: "/usr"))
        #expect(PluginSDK.at("/usr/include", exists: exists) == nil)
    }

    @Test func eachLanguageNeedsItsOwnPartOfTheSDK() {
        let sdk = PluginSDK.installed(prefix: "/usr")
        #expect(sdk.requiredFile(for: .swift) == "/usr/share/strada/swift-sdk/Package.swift")
        #expect(sdk.requiredFile(for: .c) == "/usr/include/strada/strada_plugin.h")
        #expect(sdk.requiredFile(for: .rust) == "/usr/share/strada/web/strada.js")
    }
}
