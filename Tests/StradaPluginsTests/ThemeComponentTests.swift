import StradaCore
import StradaTesting
import StradaThemeComponent
import Testing

/// The first-party `theme` component: the application's colour scheme, as the page asks.
@MainActor
@Suite struct ThemeComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [ThemeComponent.self]) }

    @Test func connectSetsTheSchemeThePageChose() {
        let page = Self.page()
        page.send("theme", "1", "connect", #"{"theme":"dark"}"#)
        #expect(page.controls.colorScheme == .dark)
        page.send("theme", "2", "connect", #"{"theme":"light"}"#)
        #expect(page.controls.colorScheme == .light)
        #expect(page.replies.isEmpty)
    }

    /// `null` (the web half's "system"), no theme, or "system": the desktop's.
    @Test func nullOrNoThemeIsTheDesktops() {
        let page = Self.page()
        page.send("theme", "1", "connect", #"{"theme":"dark"}"#)
        page.send("theme", "2", "connect", #"{"theme":null}"#)
        #expect(page.controls.colorScheme == .system)
        page.send("theme", "3", "connect", #"{"theme":"dark"}"#)
        page.send("theme", "4", "connect")
        #expect(page.controls.colorScheme == .system)
        page.send("theme", "5", "connect", #"{"theme":"dark"}"#)
        page.send("theme", "6", "connect", #"{"theme":"system"}"#)
        #expect(page.controls.colorScheme == .system)
    }

    /// An unknown name or a value of the wrong type is the desktop's scheme, never a leftover one.
    @Test func anUnknownThemeIsTheDesktops() {
        let page = Self.page()
        page.send("theme", "1", "connect", #"{"theme":"dark"}"#)
        page.send("theme", "2", "connect", #"{"theme":"sepia"}"#)
        #expect(page.controls.colorScheme == .system)
        page.send("theme", "3", "connect", #"{"theme":"dark"}"#)
        page.send("theme", "4", "connect", #"{"theme":1}"#)
        #expect(page.controls.colorScheme == .system)
        #expect(page.replies.isEmpty)
    }

    @Test func anUnknownEventChangesNothing() {
        let page = Self.page()
        page.send("theme", "1", "change", #"{"theme":"dark"}"#)
        #expect(page.controls.colorScheme == nil)
        page.send("theme", "2", "connect", #"{"theme":"dark"}"#)
        page.send("theme", "3", "disconnect", #"{"theme":"light"}"#)
        #expect(page.controls.colorScheme == .dark)
    }

    /// The scheme goes back to the desktop's when the component goes: with its page, or alone (its plugin
    /// removed while the page stays), as `page` gives the title back. Failed before: it stayed dark.
    @Test func theSchemeGoesBackToTheDesktopsWhenTheComponentGoes() {
        let page = Self.page()
        page.send("theme", "1", "connect", #"{"theme":"dark"}"#)
        page.delegate.destroyComponents()
        #expect(page.controls.colorScheme == .system)

        let other = Self.page()
        other.send("theme", "1", "connect", #"{"theme":"light"}"#)
        #expect(other.delegate.destroyComponent(named: "theme"))
        #expect(other.controls.colorScheme == .system)
    }

    /// Hot reload replays the page's last `connect`: the scheme is the page's again.
    @Test func aReloadedComponentShowsThePagesSchemeAgain() {
        let page = Self.page()
        page.send("theme", "1", "connect", #"{"theme":"dark"}"#)
        #expect(page.delegate.reloadComponent(named: "theme"))
        #expect(page.controls.colorScheme == .dark)
    }
}
