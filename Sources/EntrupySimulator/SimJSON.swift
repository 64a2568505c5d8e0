/// The simulator's own JSON value: what it parses from requests and renders into answers and
/// webhooks. Integers and fractions are kept apart so an integer survives a round trip exactly;
/// a non-finite number cannot be made from input (parsing refuses it).
enum SimJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([SimJSON])
    case object([String: SimJSON])

    subscript(key: String) -> SimJSON? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    var isNull: Bool { self == .null }

    var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    var arrayValue: [SimJSON]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    var objectValue: [String: SimJSON]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// Any finite number, integer or not.
    var doubleValue: Double? {
        switch self {
        case .int(let number): Double(number)
        case .double(let number) where number.isFinite: number
        default: nil
        }
    }

    /// An integer, also when written with a zero fraction (`4000.0`); nil when it has a fraction
    /// or does not fit in 53 bits (so converting a huge double can never trap).
    var integerValue: Int64? {
        switch self {
        case .int(let number): number
        case .double(let number) where number.isFinite && number.rounded() == number && abs(number) < 9.0e15: Int64(number)
        default: nil
        }
    }

    /// A scalar as text, the way search filters and identifiers compare it.
    var scalarText: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number) where number.isFinite: String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// Shorthands for building answers.
    static func number(_ value: Int) -> SimJSON { .int(Int64(value)) }
    static func number(_ value: Double) -> SimJSON { value.isFinite ? .double(value) : .null }
    static func optional(_ value: String?) -> SimJSON { value.map(SimJSON.string) ?? .null }
}

extension SimJSON: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            guard number.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "number out of range")
            }
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([SimJSON].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: SimJSON].self))
        }
    }
}
