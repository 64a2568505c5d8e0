import Logging
import RelayModel

/// swift-log's plain text handler (`ENTRUPY_RELAY_LOG_FORMAT=text`) with every message and metadata value
/// made printable first (`TerminalText`): logs quote peers' bytes (a header, an SMTP reply, an
/// API error), and an escape sequence among them would run in the operator's terminal.
struct PrintableLogHandler: LogHandler {
    var wrapped: any LogHandler

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = Self.printable(newValue) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue.map(Self.printable) }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: TerminalText.printable(event.message.description))
        event.metadata = event.metadata.map(Self.printable)
        wrapped.log(event: event)
    }

    static func printable(_ metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.mapValues(printable)
    }

    static func printable(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(TerminalText.printable(text))
        case .stringConvertible(let convertible): .string(TerminalText.printable(convertible.description))
        case .array(let values): .array(values.map(printable))
        case .dictionary(let members): .dictionary(members.mapValues(printable))
        }
    }
}
