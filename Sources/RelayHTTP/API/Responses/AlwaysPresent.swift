/// Writes `null` for an absent value instead of leaving the key out, so every key the API
/// documents is present in every answer (synthesized `Encodable` would omit it).
@propertyWrapper
public struct AlwaysPresent<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue { try container.encode(value) } else { try container.encodeNil() }
    }
}
