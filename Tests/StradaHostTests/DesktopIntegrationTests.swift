import StradaCore
import StradaEngineGTK
import Testing

@testable import StradaHost

/// Where a session keeps website data, as its configuration asks.
@MainActor
@Suite struct DesktopIntegrationTests {
    @Test func websiteDataIsTheDriversUnderWebDriverNoneWhenEphemeralElseTheAppsFolders() {
        var configuration = HostConfiguration(
            startURL: "https://app.test/", originPolicy: OriginPolicy(allowed: []), pluginDirectories: [])
        configuration.appID = "org.example.App"
        let folders = configuration.websiteDataDirectories
        #expect(folders.data.hasSuffix("/org.example.App") && folders.cache.hasSuffix("/org.example.App"))
        #expect(
            DesktopIntegration.websiteData(for: configuration) == .persistent(data: folders.data, cache: folders.cache))
        configuration.ephemeral = true
        #expect(DesktopIntegration.websiteData(for: configuration) == .ephemeral)
        configuration.webDriver = true
        #expect(DesktopIntegration.websiteData(for: configuration) == .automation)
    }
}
