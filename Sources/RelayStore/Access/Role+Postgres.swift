public import NIOCore
public import PostgresNIO
public import RelayModel

/// Roles are bound to SQL as their raw text; a stored role this build does not know fails on
/// decoding instead of being coerced to another role. Spelled out because `Role` is also
/// `Codable`, which would otherwise make postgres-nio's JSON and raw-value conformances clash.
extension Role: PostgresCodable {
    public static var psqlType: PostgresDataType { String.psqlType }
    public static var psqlFormat: PostgresFormat { String.psqlFormat }

    public func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer,
                                                         context: PostgresEncodingContext<JSONEncoder>) throws {
        try rawValue.encode(into: &byteBuffer, context: context)
    }

    public init<JSONDecoder: PostgresJSONDecoder>(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                                  context: PostgresDecodingContext<JSONDecoder>) throws {
        guard let role = Role(rawValue: try String(from: &buffer, type: type, format: format, context: context)) else {
            throw PostgresDecodingError.Code.failure
        }
        self = role
    }
}
