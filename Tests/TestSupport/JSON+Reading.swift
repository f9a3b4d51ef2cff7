public import StradaCore

/// What tests read from an event beside ``JSON/stringValue`` and ``JSON/objectValue``. (Should StradaCore grow
/// the same accessors, delete these.)
extension JSON {
    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is a whole number.
    public var intValue: Int? { numberValue.flatMap { Int(exactly: $0) } }

    /// The flag, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
