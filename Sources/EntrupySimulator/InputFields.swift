/// Reads typed, validated fields from a JSON object body. Every reader returns nil when the key
/// is absent (or `null`) and throws `SimInputError` when it is present with the wrong type or
/// out of range, so no wrong value is silently replaced by a default.
struct InputFields {
    let members: [String: SimJSON]
    /// Where these fields sit in the body (`"flag_info."`), for messages.
    let path: String

    init(_ body: SimJSON) throws(SimInputError) {
        guard let members = body.objectValue else { throw SimInputError("body must be a JSON object") }
        self.init(members: members)
    }

    init(members: [String: SimJSON], path: String = "") {
        self.members = members
        self.path = path
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    func value(_ key: String) -> SimJSON? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    /// Refuses keys this route does not know (a typo would otherwise be ignored silently).
    func requireOnly(_ known: Set<String>) throws(SimInputError) {
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw SimInputError("unknown key \(path)\(unknown); known keys: \(known.sorted().joined(separator: ", "))")
        }
    }

    func string(_ key: String, maxLength: Int = 256, allowEmpty: Bool = false) throws(SimInputError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw SimInputError("\(path)\(key) must be a string") }
        guard allowEmpty || !text.isEmpty else { throw SimInputError("\(path)\(key) must not be empty") }
        guard text.count <= maxLength else { throw SimInputError("\(path)\(key) must be at most \(maxLength) characters") }
        return text
    }

    /// A string, or a number taken as its text (identifiers such as a UPC or an order number).
    func text(_ key: String, maxLength: Int = 256) throws(SimInputError) -> String? {
        guard let value = value(key) else { return nil }
        guard value.stringValue != nil || value.doubleValue != nil, let text = value.scalarText else {
            throw SimInputError("\(path)\(key) must be a string")
        }
        guard !text.isEmpty else { throw SimInputError("\(path)\(key) must not be empty") }
        guard text.count <= maxLength else { throw SimInputError("\(path)\(key) must be at most \(maxLength) characters") }
        return text
    }

    func bool(_ key: String) throws(SimInputError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw SimInputError("\(path)\(key) must be true or false") }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int64>) throws(SimInputError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.integerValue, range.contains(number) else {
            throw SimInputError("\(path)\(key) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(SimInputError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue, range.contains(number) else {
            throw SimInputError("\(path)\(key) must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return number
    }

    /// A fraction of events or requests: a number from 0 to 1.
    func rate(_ key: String) throws(SimInputError) -> Double? {
        try number(key, in: 0...1)
    }

    func object(_ key: String) throws(SimInputError) -> InputFields? {
        guard let value = value(key) else { return nil }
        guard let members = value.objectValue else { throw SimInputError("\(path)\(key) must be an object") }
        return InputFields(members: members, path: path + key + ".")
    }

    func array(_ key: String, maxCount: Int) throws(SimInputError) -> [SimJSON]? {
        guard let value = value(key) else { return nil }
        guard let elements = value.arrayValue else { throw SimInputError("\(path)\(key) must be an array") }
        guard elements.count <= maxCount else { throw SimInputError("\(path)\(key) must have at most \(maxCount) elements") }
        return elements
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
