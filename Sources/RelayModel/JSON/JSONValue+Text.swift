import Foundation

extension JSONValue {
    /// Compact JSON text with sorted keys (stable, so equal values give equal text).
    public var jsonText: String { JSONWriter.text(self) }

    /// Parses JSON text; nil when it is not JSON.
    public init?(jsonText: String) {
        guard let value = try? JSONValue.parse(Array(jsonText.utf8)) else { return nil }
        self = value
    }

    /// Integer value of a number or numeric string.
    public var int64Value: Int64? {
        switch self {
        case .number(let number): return number.int64
        case .string(let text): return Int64(text)
        default: return nil
        }
    }
}
