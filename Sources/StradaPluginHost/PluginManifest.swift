import Crypto
import Foundation
package import StradaCore

/// The optional manifest next to a plugin: `libfoo.so` → `libfoo.json`.
///
/// ```json
/// {"id": "dev.example.foo", "version": "1.2.0", "components": ["foo"], "abi": "1.0",
///  "sha256": "<64 hex digits of the .so>", "capabilities": ["controls", "dialogs"],
///  "origins": ["https://app.example.com"]}
/// ```
/// Every field is optional. The host checks `abi` and `sha256` *before* loading any code, and warns when
/// `id` or `components` disagree with what the plugin itself declares. `capabilities` lists the host APIs
/// the plugin calls (``Capability``; absent: every one, as before capabilities existed) and `origins` the
/// origins whose pages may use its components (absent: every allowed origin); the app definition's `grants`
/// has the last word on both.
package struct PluginManifest: Sendable, Equatable {
    package var id: String?
    package var version: String?
    package var components: [String]?
    /// "major.minor".
    package var abi: String?
    package var sha256: String?
    /// Native actions callable by signature (see ``PluginAction``).
    package var actions: [PluginAction]?
    /// The host APIs the plugin calls; `nil` when the manifest does not say.
    package var capabilities: Set<Capability>?
    /// The origins whose pages may use the plugin's components; `nil`: every origin the host allows.
    package var origins: [String]?

    package init(
        id: String? = nil, version: String? = nil, components: [String]? = nil, abi: String? = nil,
        sha256: String? = nil, actions: [PluginAction]? = nil, capabilities: Set<Capability>? = nil,
        origins: [String]? = nil
    ) {
        self.actions = actions
        self.capabilities = capabilities
        self.origins = origins
        self.id = id
        self.version = version
        self.components = components
        self.abi = abi
        self.sha256 = sha256
    }

    /// The manifest path for a plugin file: same folder, same name, extension `.json`.
    package static func path(forPlugin plugin: String) -> String { sibling(ofPlugin: plugin, extension: "json") }

    /// `plugin` with its name's last extension replaced by `ext` (`libcounter.so` → `libcounter.<ext>`), or `ext`
    /// added to a name without one — as NSString's `deletingPathExtension` and `appendingPathExtension` do, in
    /// plain string operations: a start-up makes a thousand of these, and NSString's cost ~7 µs each (perf).
    package static func sibling(ofPlugin plugin: String, extension ext: String) -> String {
        let name =
            plugin.utf8.lastIndex(of: UInt8(ascii: "/")).map { plugin.utf8.index(after: $0) } ?? plugin.startIndex
        guard let dot = plugin.utf8[name...].lastIndex(of: UInt8(ascii: ".")), dot != name else {
            return plugin + "." + ext
        }
        return plugin[..<dot] + "." + ext
    }

    /// The manifest next to the plugin at `path`, or `nil` when there is none or it cannot be read (the loader
    /// has already refused a plugin whose manifest is malformed).
    package init?(besidePlugin path: String) {
        guard let text = try? String(contentsOfFile: Self.path(forPlugin: path), encoding: .utf8),
            let manifest = try? PluginManifest(json: text)
        else { return nil }
        self = manifest
    }

    /// Parses manifest text; the error says which field is wrong.
    package init(json text: String) throws(MalformedMessage) {
        guard let value = try? JSON(parsing: text), case .object(let fields) = value else {
            throw MalformedMessage(reason: "the manifest is not a JSON object")
        }
        func string(_ key: String) throws(MalformedMessage) -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw MalformedMessage(reason: "manifest field \"\(key)\" must be a string")
            }
        }
        id = try string("id")
        version = try string("version")
        abi = try string("abi")
        sha256 = try string("sha256")?.lowercased()
        func strings(_ key: String) throws(MalformedMessage) -> [String]? {
            switch fields[key] {
            case nil, .null?: return nil
            case .array(let items)?:
                let names = items.compactMap(\.stringValue)
                guard names.count == items.count else { break }
                return names
            default: break
            }
            throw MalformedMessage(reason: "manifest field \"\(key)\" must be an array of strings")
        }
        components = try strings("components")
        capabilities = try strings("capabilities").map { names throws(MalformedMessage) in
            try Capability.parse(names, field: "manifest field \"capabilities\"")
        }
        origins = try strings("origins")
        for origin in origins ?? [] where OriginPolicy.origin(of: origin) == nil {
            throw MalformedMessage(
                reason: "manifest field \"origins\": \"\(origin)\" is not an origin like https://app.example.com")
        }
        switch fields["actions"] {
        case nil, .null?: actions = nil
        case .array(let items)?:
            var parsed: [PluginAction] = []
            for item in items {
                guard let name = item["name"]?.stringValue, let symbol = item["symbol"]?.stringValue,
                    let signature = item["signature"]?.stringValue
                else {
                    throw MalformedMessage(
                        reason: "each manifest action needs string \"name\", \"symbol\" and \"signature\"")
                }
                parsed.append(try PluginAction(name: name, symbol: symbol, signature: signature))
            }
            actions = parsed
        default: throw MalformedMessage(reason: "manifest field \"actions\" must be an array")
        }
        if let abi, Self.parseABI(abi) == nil {
            throw MalformedMessage(reason: "manifest field \"abi\" must look like \"1.0\"")
        }
        if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
            throw MalformedMessage(reason: "manifest field \"sha256\" must be 64 hex digits")
        }
    }

    /// The manifest as JSON text (sorted keys).
    package var json: String {
        var fields: JSONObject = [:]
        if let id { fields["id"] = .string(id) }
        if let version { fields["version"] = .string(version) }
        if let components { fields["components"] = .array(components.map(JSON.string)) }
        if let abi { fields["abi"] = .string(abi) }
        if let sha256 { fields["sha256"] = .string(sha256) }
        if let capabilities { fields["capabilities"] = .array(capabilities.sorted().map { .string($0.rawValue) }) }
        if let origins { fields["origins"] = .array(origins.map(JSON.string)) }
        if let actions {
            fields["actions"] = .array(
                actions.map { action in
                    let parameters = action.parameters.map(\.rawValue).joined(separator: ",")
                    return [
                        "name": .string(action.name), "symbol": .string(action.symbol),
                        "signature": .string("\(action.returns.rawValue)(\(parameters))"),
                    ]
                })
        }
        return JSON.object(fields).serialized(sortedKeys: true)
    }

    static func parseABI(_ text: String) -> (major: Int, minor: Int)? {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }

    /// The SHA-256 of a file, as 64 lowercase hex digits.
    package static func sha256(ofFile path: String) throws -> String {
        SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).hexDigits
    }
}
