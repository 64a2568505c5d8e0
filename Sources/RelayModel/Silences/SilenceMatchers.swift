/// What a silence matches, besides its rule: the fields a rule's `when` reads (transition,
/// result, flag, brand, category, customer_item_id, username), each a list of exact values
/// (any of them matches; every field given must match). Transition, result, flag, brand and
/// category compare without regard to case, as rules do; customer_item_id and username
/// exactly (no patterns: a silence comes from an API call, and a pattern there could be slow).
public struct SilenceMatchers: Sendable, Equatable {
    /// Values by field name; a field left out matches everything.
    public private(set) var values: [String: [String]]

    /// The fields a silence may name, in the order they are shown.
    public static let fields = ["transition", "result", "flag", "brand", "category", "customer_item_id", "username"]
    /// The fields compared exactly; the others compare lowercased.
    static let exactFields: Set<String> = ["customer_item_id", "username"]
    static let maxValues = 50
    static let maxLength = 256

    public init() { values = [:] }

    /// From values already checked (as stored); unknown fields are dropped.
    public init(stored values: [String: [String]]) {
        self.values = values.filter { Self.fields.contains($0.key) && !$0.value.isEmpty }
    }

    /// Why a matcher is refused: the field and what is wrong.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let field: String
        public let reason: String
        public var description: String { "\(field): \(reason)" }
    }

    /// Adds `field` with its values, checking both: a known field, one to 50 strings of at most 256
    /// characters without control characters; a transition must be a known kind.
    public mutating func set(_ field: String, _ given: [String]) throws(Invalid) {
        guard Self.fields.contains(field) else {
            throw Invalid(field: field, reason: "unknown field; expected one of \(Self.fields.joined(separator: ", "))")
        }
        guard !given.isEmpty, given.count <= Self.maxValues else {
            throw Invalid(field: field, reason: "must be a string or a list of 1 to \(Self.maxValues) strings")
        }
        for value in given {
            guard !value.isEmpty, value.unicodeScalars.count <= Self.maxLength,
                  !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Invalid(field: field, reason: "each value must be a non-empty string of at most \(Self.maxLength) characters, "
                              + "without control characters")
            }
            if field == "transition", TransitionKind(rawValue: value) == nil, OperationalKind(rawValue: value) == nil {
                let known = (TransitionKind.allCases.map(\.rawValue) + OperationalKind.allCases.map(\.rawValue)).joined(separator: ", ")
                throw Invalid(field: field, reason: "unknown transition kind \"\(value)\"; expected one of \(known)")
            }
        }
        values[field] = Self.exactFields.contains(field) ? given : given.map { $0.lowercased() }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// Whether it names a field of the item (anything but the transition): matching it needs the item.
    public var readsItems: Bool { values.keys.contains { $0 != "transition" } }

    /// Whether the transition alone allows a match (the item's fields are checked by `matches`).
    public func matches(transition: String) -> Bool {
        guard let allowed = values["transition"] else { return true }
        return allowed.contains(transition.lowercased())
    }

    /// Whether a delivery of `transition` about `item` matches: nil for an operational transition,
    /// which no item field matches.
    public func matches(transition: String, item: EntrupyItem?) -> Bool {
        guard matches(transition: transition) else { return false }
        guard readsItems else { return true }
        guard let item else { return false }
        let fields: [String: String?] = [
            "result": item.result, "flag": item.flag, "brand": item.brand, "category": item.category,
            "customer_item_id": item.customerItemID, "username": item.username,
        ]
        for (field, allowed) in values where field != "transition" {
            guard let value = fields[field] ?? nil else { return false }
            let compared = Self.exactFields.contains(field) ? value : value.lowercased()
            if !allowed.contains(compared) { return false }
        }
        return true
    }
}
