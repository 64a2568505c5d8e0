public import Foundation
import RelayModel

/// The one way the API (and the CLI's `--json`) writes JSON: `Encodable` response types,
/// sorted keys, dates as ISO 8601 in UTC with milliseconds.
public enum APIJSON {
    /// - Parameter pretty: indented, for people reading a terminal (the CLI's `--json`).
    public static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISODate.text(date))
        }
        return try encoder.encode(value)
    }

    public static func text(_ value: some Encodable, pretty: Bool = false) throws -> String {
        String(decoding: try encode(value, pretty: pretty), as: UTF8.self)
    }
}
