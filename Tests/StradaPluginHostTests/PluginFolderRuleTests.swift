import Foundation
import Logging
import TestSupport
import Testing

@testable import StradaPluginHost

/// Which plugins folders a host searches, in which order: the app's (`--plugins`, else the app definition's,
/// else the user's), then the installed host's first-party plugins unless the app opts out; the earlier folder
/// keeps a component name.
@MainActor
@Suite(.serialized, .temporaryDirectories)
struct PluginFolderRuleTests {
    let user = "/home/ada/.local/share/strada/plugins"
    let system = "/usr/lib/strada/plugins"

    func searched(given: [String] = [], app: [String] = [], includeSystem: Bool = true, existing: Set<String>)
        -> [String]
    {
        PluginDirectories.searched(
            given: given, app: app, includeSystem: includeSystem, userFolder: user, systemFolder: system,
            exists: existing.contains)
    }

    @Test func withNoFolderNamedTheUsersFolderThenTheSystemFolder() {
        #expect(searched(existing: [user, system]) == [user, system])
        #expect(searched(existing: [system]) == [system])
        #expect(searched(existing: [user]) == [user])
        #expect(searched(existing: []) == [])
    }

    @Test func foldersGivenWithPluginsComeFirstAndTheSystemFolderStays() {
        #expect(searched(given: ["/ci/plugins"], existing: [user, system]) == ["/ci/plugins", system])
        #expect(
            searched(given: ["/ci/a", "/ci/b"], app: ["/app/plugins"], existing: [system]) == [
                "/ci/a", "/ci/b", system,
            ])
    }

    @Test func anAppDefinitionsFoldersReplaceTheUsersFolderNotTheSystemFolder() {
        #expect(searched(app: ["/opt/notes/plugins"], existing: [user, system]) == ["/opt/notes/plugins", system])
    }

    @Test func optingOutLeavesOnlyTheAppsOwnFolders() {
        #expect(searched(given: ["/ci/plugins"], includeSystem: false, existing: [system]) == ["/ci/plugins"])
        #expect(
            searched(app: ["/opt/notes/plugins"], includeSystem: false, existing: [system]) == ["/opt/notes/plugins"])
        #expect(searched(includeSystem: false, existing: [user, system]) == [user])
    }

    @Test func aFolderNamedTwiceIsSearchedOnce() {
        #expect(
            searched(given: [system, "/usr/lib/strada/plugins/", "/ci/./plugins", "/ci/plugins"], existing: [system])
                == [system, "/ci/./plugins"])
    }

    @Test func theEarlierFolderKeepsAComponentNameEvenWhenTheLaterFileSortsFirst() throws {
        let app = try TemporaryDirectory.make("app-plugins")
        let first = try TemporaryDirectory.make("first-party")
        let mine = (app as NSString).appendingPathComponent("libz-mine.so")
        let theirs = (first as NSString).appendingPathComponent("liba-first-party.so")
        try CCompiler.sharedLibrary(PluginLoaderTests.cPlugin, at: mine)
        try CCompiler.sharedLibrary(PluginLoaderTests.cPlugin, at: theirs)
        let lines = WarningLines()
        let report = PluginLoader(logger: Logger(label: "test") { _ in lines }).load(directories: [app, first])
        #expect(report.plugins.map(\.path) == [mine, theirs])
        #expect(report.conflicts == ["echo"])
        #expect(lines.text.count == 1)
        #expect(
            lines.text.first?.hasPrefix("component \"echo\" is provided by \(mine) and \(theirs); using \(mine)")
                == true)
    }
}
