package import StradaCore
package import StradaPluginHost

extension AppDefinition {
    /// Reads `"grants"`: what each plugin, by id, may do in this app — its capabilities and the origins whose
    /// pages may use its components — replacing what the plugin's manifest declares, field by field:
    ///
    /// ```json
    /// "grants": {"dev.example.weather": {"capabilities": ["controls"], "origins": ["https://app.example.com"],
    ///                                   "isolation": "sandbox"}}
    /// ```
    static func grants(from value: JSON?, file: String) throws(AppDefinitionError) -> [String: PluginGrant.Override] {
        func fail(_ reason: String) -> AppDefinitionError { AppDefinitionError(file: file, reason) }
        guard let value else { return [:] }
        let shape = "{\"<plugin id>\": {\"capabilities\": [...], \"origins\": [...]}}"
        guard case .object(let plugins) = value else { throw fail("\"grants\" must be an object like \(shape)") }
        var grants: [String: PluginGrant.Override] = [:]
        for (id, entry) in plugins {
            guard case .object(let fields) = entry else { throw fail("\"grants\".\"\(id)\" must be an object") }
            for key in fields.keys where !["capabilities", "origins", "isolation"].contains(key) {
                throw fail(
                    "\"grants\".\"\(id)\" has an unknown key \"\(key)\" (known: capabilities, origins, isolation)")
            }
            func strings(_ key: String) throws(AppDefinitionError) -> [String]? {
                guard let field = fields[key] else { return nil }
                guard case .array(let items) = field, items.allSatisfy({ $0.stringValue != nil }) else {
                    throw fail("\"grants\".\"\(id)\".\"\(key)\" must be an array of strings")
                }
                return items.compactMap(\.stringValue)
            }
            var grant = PluginGrant.Override()
            if let names = try strings("capabilities") {
                do {
                    grant.capabilities = try Capability.parse(names, field: "\"grants\".\"\(id)\".\"capabilities\"")
                } catch {
                    throw fail(error.reason)
                }
            }
            grant.origins = try strings("origins")
            for origin in grant.origins ?? [] where OriginPolicy.origin(of: origin) == nil {
                throw fail("\"grants\".\"\(id)\".\"origins\" has \"\(origin)\", not an origin like https://app.example")
            }
            if let isolation = fields["isolation"] {
                guard let name = isolation.stringValue, let value = PluginGrant.Isolation(rawValue: name) else {
                    throw fail("\"grants\".\"\(id)\".\"isolation\" must be \"in-process\", \"process\" or \"sandbox\"")
                }
                grant.isolation = value
            }
            grants[id] = grant
        }
        return grants
    }
}
