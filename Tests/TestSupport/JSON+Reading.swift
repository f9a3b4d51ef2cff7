package import StradaCore

/// What tests read from an event beside ``JSON/stringValue`` and ``JSON/objectValue``. (Should StradaCore grow
/// the same accessors, delete these.)
extension JSON {
    /// The number, when this is a number.
    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is a whole number.
    package var intValue: Int? { numberValue.flatMap { Int(exactly: $0) } }

    /// The flag, when this is a boolean.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    package var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
