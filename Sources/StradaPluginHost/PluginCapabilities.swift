import Foundation
package import StradaCore

/// A host API a plugin may call, as its manifest declares it (`"capabilities": ["controls", "dialogs"]`) and an
/// app definition grants it (`"grants"`). A call outside the plugin's grant is refused with one line.
package enum Capability: String, CaseIterable, Sendable, Comparable {
    /// Header-bar buttons, menus, search fields, the window title and colour scheme.
    case controls
    /// Alerts that ask the user (`alert` controls).
    case dialogs
    /// Transient messages in the window (`toast` controls).
    case notifications
    /// Writing to the clipboard (`clipboard` controls).
    case clipboard
    /// Opening a URL in the browser or with the system's handler (`openURL` controls).
    case openURI = "open-uri"
    /// Native screens for path-configuration rules (`dev.strada.screens/1`).
    case nativeScreens = "native-screens"
    /// Network access. Declared and shown; the host can only hold a plugin to it in a sandbox.
    case network

    package static func < (lhs: Capability, rhs: Capability) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The capability a control of this kind needs.
    package static func needed(for spec: ControlSpec) -> Capability {
        switch spec {
        case .menu, .search, .title, .colorScheme: .controls
        case .alert: .dialogs
        case .toast: .notifications
        case .clipboard: .clipboard
        case .openURL: .openURI
        }
    }

    /// The control's kind, as plugins name it in its spec (`"menu"`, `"alert"`, …).
    package static func kind(of spec: ControlSpec) -> String {
        switch spec {
        case .menu: "menu"
        case .search: "search"
        case .title: "title"
        case .colorScheme: "colorScheme"
        case .alert: "alert"
        case .toast: "toast"
        case .clipboard: "clipboard"
        case .openURL: "openURL"
        }
    }

    /// Parses a manifest's or app definition's list; the error names the unknown entry and the known ones.
    package static func parse(_ names: [String], field: String) throws(MalformedMessage) -> Set<Capability> {
        var result = Set<Capability>()
        for name in names {
            guard let capability = Capability(rawValue: name) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                throw MalformedMessage(reason: "\(field): unknown capability \"\(name)\" (known: \(known))")
            }
            result.insert(capability)
        }
        return result
    }
}

/// What one plugin may do in this host: the host APIs it may call and the origins whose pages may use its
/// components. Made from what the plugin's manifest declares and what the app definition grants
/// (``PluginGrant/effective(declared:origins:granted:)``).
package struct PluginGrant: Sendable, Equatable {
    /// `nil`: unrestricted — a plugin whose manifest declares no capabilities and that the app definition
    /// does not narrow (written before capabilities existed; `plugin inspect` says so).
    package var capabilities: Set<Capability>?
    /// `nil`: every origin the host allows. Otherwise origins as `scheme://host[:port]`.
    package var origins: [String]?

    package init(capabilities: Set<Capability>? = nil, origins: [String]? = nil) {
        self.capabilities = capabilities
        self.origins = origins
    }

    /// A plugin that may do everything the host offers, on every allowed origin.
    package static let unrestricted = PluginGrant()

    /// Where the plugin runs (an app definition's `"isolation"`): in the host's process, in a plain worker
    /// process, or in a worker inside the sandbox. See ``PluginGrants/placement(forPluginAt:signed:)``.
    package enum Isolation: String, Sendable, CaseIterable {
        case inProcess = "in-process"
        case process, sandbox
    }

    /// What the app definition says about one plugin: each field it sets replaces the manifest's; `isolation`
    /// chooses where it runs.
    package struct Override: Sendable, Equatable {
        package var capabilities: Set<Capability>?
        package var origins: [String]?
        package var isolation: Isolation?
        package init(capabilities: Set<Capability>? = nil, origins: [String]? = nil, isolation: Isolation? = nil) {
            self.capabilities = capabilities
            self.origins = origins
            self.isolation = isolation
        }
    }

    /// The grant in force: the app definition's word where it has one (it may grant more than the manifest
    /// asks, or less), else the manifest's declaration.
    package static func effective(declared: Set<Capability>?, origins: [String]?, granted: Override?) -> PluginGrant {
        PluginGrant(
            capabilities: granted?.capabilities ?? declared,
            origins: (granted?.origins ?? origins).map { $0.compactMap(OriginPolicy.origin(of:)) })
    }

    package func allows(_ capability: Capability) -> Bool { capabilities?.contains(capability) ?? true }

    /// Whether a page at `url` may use the plugin's components.
    package func allows(pageURL url: String) -> Bool {
        guard let origins else { return true }
        guard let origin = OriginPolicy.origin(of: url) else { return false }
        return origins.contains(origin)
    }

    /// One line for `plugin inspect` and `plugin list`.
    package var summary: String {
        let uses = capabilities.map { $0.isEmpty ? "none" : $0.sorted().map(\.rawValue).joined(separator: ", ") }
        let on = origins.map { " on \($0.joined(separator: ", "))" } ?? ""
        return (uses ?? "all host APIs (none declared)") + on
    }
}

/// The app's word on each plugin (its definition's `"grants"`, by plugin id), set once before plugins load,
/// and the grant each plugin gets from it and its manifest.
@MainActor
package enum PluginGrants {
    /// The app definition's `grants`, by plugin id.
    package static var overrides: [String: PluginGrant.Override] = [:]

    /// Every isolated plugin runs in the sandbox (`run --sandbox`).
    package static var sandboxEveryPlugin = false

    /// The grant in force for the plugin `id` with `manifest`.
    package static func grant(for id: String, manifest: PluginManifest?) -> PluginGrant {
        .effective(declared: manifest?.capabilities, origins: manifest?.origins, granted: overrides[id])
    }

    /// What a page's origin needs to use component `name` of plugin `id` under `grant`: `nil` — every page may,
    /// with no check on the page-load path — unless the grant names origins; then why a page may not, or `nil`.
    package static func pageCheck(of name: String, plugin id: String, grant: PluginGrant)
        -> ComponentRegistration.PageCheck?
    {
        guard let origins = grant.origins else { return nil }
        return { url in
            guard !grant.allows(pageURL: url) else { return nil }
            let origin = OriginPolicy.origin(of: url) ?? url
            return "component \"\(name)\" of plugin \(id) is not granted to \(origin) (its origins: "
                + "\(origins.joined(separator: ", "))); grant it in the app definition's \"grants\""
        }
    }

    /// The line a refused host-API call writes: the plugin, the capability, and the fix.
    package static func refusal(plugin id: String, capability: Capability, doing what: String) -> String {
        "plugin \(id) may not use \(capability.rawValue) (\(what) refused): declare \"\(capability.rawValue)\" in its "
            + "manifest's \"capabilities\", or grant it in the app definition's \"grants\""
    }
}

extension PluginStatus {
    /// What the plugin may do: its manifest's declaration, with `overrides` (an app definition's `grants`)
    /// applied; `nil` for a plugin that did not load.
    package func grant(overrides: [String: PluginGrant.Override] = [:]) -> PluginGrant? {
        guard state == .loaded else { return nil }
        let manifest = PluginManifest(besidePlugin: path)
        return .effective(
            declared: manifest?.capabilities, origins: manifest?.origins, granted: id.flatMap { overrides[$0] })
    }

    /// ``json`` with the grant's `capabilities` and `origins` (`null`: unrestricted).
    package func json(overrides: [String: PluginGrant.Override] = [:]) -> JSON {
        guard case .object(var fields) = json, let grant = grant(overrides: overrides) else { return json }
        fields["capabilities"] = grant.capabilities.map { .array($0.sorted().map { .string($0.rawValue) }) } ?? .null
        fields["origins"] = grant.origins.map { .array($0.map(JSON.string)) } ?? .null
        return .object(fields)
    }
}
