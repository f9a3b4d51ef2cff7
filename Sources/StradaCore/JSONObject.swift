public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members, in order, each key once.
    public private(set) var members: [(key: String, value: JSON)]

    public init() { members = [] }

    /// From a dictionary (keys sorted, so the order is stable).
    public init(_ dictionary: [String: JSON]) {
        members = dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(parsed: elements.map { (key: $0.0, value: $0.1) })
    }

    /// From members that may repeat a key: the last value wins, at the first position (as JSON.parse does).
    init(parsed: [(key: String, value: JSON)]) {
        if parsed.count <= 1 {
            members = parsed
            return
        }
        if parsed.count <= 16 {
            // Small objects (nearly all messages): a quadratic scan beats hashing every key.
            var duplicate = false
            outer: for i in 1..<parsed.count {
                for j in 0..<i where parsed[i].key == parsed[j].key {
                    duplicate = true
                    break outer
                }
            }
            if !duplicate {
                members = parsed
                return
            }
        }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(parsed.count)
        var unique: [(key: String, value: JSON)] = []
        unique.reserveCapacity(parsed.count)
        for member in parsed {
            if let position = positions[member.key] {
                unique[position].value = member.value
            } else {
                positions[member.key] = unique.count
                unique.append(member)
            }
        }
        members = unique
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSON? {
        get { members.first { $0.key == key }?.value }
        set {
            let position = members.firstIndex { $0.key == key }
            switch (position, newValue) {
            case (let position?, let value?): members[position].value = value
            case (let position?, nil): members.remove(at: position)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSON)]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { member in rhs[member.key] == member.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(combined)
    }
}
