/// A JSON number as it was written. Identifiers arrive as numbers too (event IDs, numeric SKUs),
/// and a `Double` holds integers exactly only up to 2^53: 9007199254740993 would become
/// …992 and collide with another event. So the number keeps its source text; `double` and
/// `int64` read it on demand, and writing the value back gives the same text.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text (as received, or as written for a value made here).
    public let text: String

    /// From the parser, which has checked the JSON number grammar.
    init(validatedText text: String) {
        self.text = text
    }

    public init(_ value: Int64) {
        text = String(value)
    }

    public init(_ value: Int) {
        text = String(value)
    }

    /// Integral values without a fraction, others in Swift's shortest round-tripping form;
    /// NaN and the infinities, which JSON cannot write, become 0.
    public init(_ value: Double) {
        guard value.isFinite else { text = "0"; return }
        if value.rounded() == value, abs(value) < 1e15 { text = String(Int64(value)); return }
        text = String(value)
    }

    /// The nearest `Double` (always finite: the parser refuses numbers beyond its range).
    public var double: Double {
        Double(text) ?? 0
    }

    /// The exact integer, when the number is one that fits: `12`, `-3`, `1.0`, `1e3`;
    /// nil for `1.5`, or for integers beyond Int64.
    public var int64: Int64? {
        if let exact = Int64(text) { return exact }
        let value = double
        guard value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int64(value)
    }

    public var description: String { text }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    public init(floatLiteral value: Double) {
        self.init(value)
    }
}
