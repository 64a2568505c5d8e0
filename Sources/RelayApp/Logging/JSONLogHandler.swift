import Foundation
public import Logging
import RelayModel
import Synchronization

/// One JSON object per line on standard error: time, level, label, message and every
/// metadata key (request_id, client, ...) as fields, so logs can be filtered by request.
public struct JSONLogHandler: LogHandler {
    private static let output = Mutex<FileHandle>(FileHandle.standardError)

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String

    public init(label: String, logLevel: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: JSONValue] = [
            "ts": .string(Date().formatted(Self.timestampStyle)),
            "level": .string(event.level.rawValue),
            "logger": .string(label),
            "msg": .string(event.message.description),
        ]
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        for (key, value) in merged where fields[key] == nil {
            fields[key] = Self.json(value)
        }
        let line = Data((JSONValue.object(fields).jsonText + "\n").utf8)
        Self.output.withLock { $0.write(line) }
    }

    static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let dictionary): .object(dictionary.mapValues(json))
        }
    }
}
