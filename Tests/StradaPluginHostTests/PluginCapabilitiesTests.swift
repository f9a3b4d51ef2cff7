import StradaCore
import Testing

@testable import StradaPluginHost

/// Capabilities: what a manifest declares, what an app definition's grant replaces, and what each host API
/// and page is held to.
@MainActor
@Suite struct PluginCapabilitiesTests {
    @Test func aManifestDeclaresCapabilitiesAndOriginsAndWritesThemBack() throws {
        let text =
            #"{"id": "dev.example.pay", "capabilities": ["open-uri", "controls"], "#
            + #""origins": ["https://pay.example"]}"#
        let manifest = try PluginManifest(json: text)
        #expect(manifest.capabilities == [.controls, .openURI])
        #expect(manifest.origins == ["https://pay.example"])
        #expect(try PluginManifest(json: manifest.json) == manifest)
        #expect(manifest.json.contains(#""capabilities":["controls","open-uri"]"#), "sorted, by their manifest names")
    }

    @Test(arguments: [
        (#"{"capabilities": ["camera"]}"#, #"manifest field "capabilities": unknown capability "camera" (known: "#),
        (#"{"capabilities": "controls"}"#, #"manifest field "capabilities" must be an array of strings"#),
        (#"{"origins": ["pay.example"]}"#, #"manifest field "origins": "pay.example" is not an origin"#),
    ])
    func aBadDeclarationIsOneLineNamingTheField(text: String, expected: String) {
        #expect {
            try PluginManifest(json: text)
        } throws: { error in
            (error as? MalformedMessage)?.reason.hasPrefix(expected) == true
        }
    }

    @Test func theAppDefinitionsWordReplacesTheManifestsFieldByField() {
        let declared: Set<Capability> = [.controls, .clipboard]
        let none = PluginGrant.effective(declared: declared, origins: ["https://a.example/x"], granted: nil)
        #expect(none.capabilities == declared && none.origins == ["https://a.example"])
        let narrowed = PluginGrant.effective(
            declared: declared, origins: nil, granted: .init(capabilities: [.controls]))
        #expect(narrowed.allows(.controls) && !narrowed.allows(.clipboard))
        #expect(narrowed.origins == nil, "origins the grant leaves out stay the manifest's")
        let widened = PluginGrant.effective(declared: [], origins: nil, granted: .init(capabilities: [.dialogs]))
        #expect(widened.allows(.dialogs), "the app may grant more than the manifest asks")
    }

    @Test func aPluginThatDeclaresNothingMayUseEveryHostAPIOnEveryOrigin() {
        let grant = PluginGrant.effective(declared: nil, origins: nil, granted: nil)
        #expect(Capability.allCases.allSatisfy(grant.allows))
        #expect(grant.allows(pageURL: "https://anything.example/"))
        #expect(grant.summary == "all host APIs (none declared)")
    }

    @Test func originsAreComparedAsOrigins() {
        let grant = PluginGrant(origins: ["https://app.example"])
        #expect(grant.allows(pageURL: "https://APP.example:443/posts?x=1"))
        #expect(!grant.allows(pageURL: "http://app.example/"), "another scheme is another origin")
        #expect(!grant.allows(pageURL: "https://app.example:8443/"))
        #expect(!grant.allows(pageURL: "about:blank"))
        #expect(grant.summary == "all host APIs (none declared) on https://app.example")
    }

    @Test func aPageIsAnnouncedTheComponentsItsOriginMayUse() {
        let grant = PluginGrant(origins: ["https://pay.example"])
        let make: ComponentRegistration.Factory = { destination, delegate in
            BridgeComponent(destination: destination, delegate: delegate)
        }
        let registrations = [
            ComponentRegistration(name: "menu", make: make),
            ComponentRegistration(
                name: "pay", pageCheck: PluginGrants.pageCheck(of: "pay", plugin: "dev.example.pay", grant: grant),
                make: make),
            ComponentRegistration(name: "menu", make: make),
        ]
        let checkout = ComponentRegistration.names(servedTo: "https://pay.example/checkout", registrations)
        #expect(checkout == ["menu", "pay"])
        #expect(ComponentRegistration.names(servedTo: "https://app.example/", registrations) == ["menu"])
    }

    @Test func eachControlNeedsItsCapability() {
        let needs: [(ControlSpec, Capability)] = [
            (.toast("Saved"), .notifications), (.clipboard("x"), .clipboard), (.openURL("https://a.example"), .openURI),
            (.title("T", subtitle: nil), .controls), (.colorScheme(.dark), .controls),
        ]
        for (spec, capability) in needs { #expect(Capability.needed(for: spec) == capability) }
    }

    @Test func aRefusalNamesThePluginTheCapabilityAndTheFix() {
        let line = PluginGrants.refusal(plugin: "dev.example.pay", capability: .clipboard, doing: "clipboard control c")
        #expect(
            line == #"plugin dev.example.pay may not use clipboard (clipboard control c refused): declare "clipboard" "#
                + #"in its manifest's "capabilities", or grant it in the app definition's "grants""#)
    }
}
