import Foundation

/// A JSON document as a value. Payloads from Entrupy have no published schema, so the relay
/// reads them through this type instead of fixed `Decodable` structs: unknown keys and
/// unexpected shapes survive, and lookups that miss simply return nil.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a JSON text (any value at the top level).
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// Follows a dotted path of object keys (`data.item.entrupy_id`).
    public subscript(path path: String) -> JSONValue? {
        var current: JSONValue? = self
        for key in path.split(separator: ".") {
            current = current?[String(key)]
        }
        return current
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let number) = self { return number.double }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// Text for a scalar: strings as they are, numbers as they were written.
    public var scalarText: String? {
        switch self {
        case .string(let text): return text
        case .number(let number): return number.text
        default: return nil
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(JSONNumber(integer))
        } else if let number = try? container.decode(Double.self) {
            self = .number(JSONNumber(number))
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number):
            if let integer = Int64(number.text) { try container.encode(integer) } else { try container.encode(number.double) }
        case .string(let text): try container.encode(text)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}
