import Logging
@testable import RelayApp
import Synchronization
import Testing

/// Issue 27, "also": `ENTRUPY_RELAY_LOG_FORMAT=text` wrote peers' bytes (a header, an SMTP reply, an API
/// error) raw to the operator's terminal, escape sequences included.
@Suite("Text logs are printable")
struct TextLogTests {
    final class Events: Sendable {
        let list = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
    }

    /// Keeps what reaches the wrapped handler.
    struct Capture: LogHandler {
        let events: Events
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            events.list.withLock { $0.append((event.message.description, metadata.merging(event.metadata ?? [:]) { _, new in new })) }
        }
    }

    @Test func controlCharactersAreEscapedInMessagesAndMetadata() throws {
        let capture = Capture(events: Events())
        var handler = PrintableLogHandler(wrapped: capture)
        handler[metadataKey: "peer"] = "smtp\u{1B}[2J"
        let configured = handler
        let logger = Logger(label: "test") { _ in configured }
        logger.warning("reply \u{1B}]0;owned\u{07} from peer", metadata: [
            "reply": "550\r\nforged line", "nested": ["a": "\u{9B}31m", "list": ["\u{00}x"]],
        ])
        let event = try #require(capture.events.list.withLock { $0.first })
        #expect(event.message == "reply \\u{1B}]0;owned\\u{7} from peer")
        #expect(event.metadata["reply"] == "550\\u{D}\\u{A}forged line")
        #expect(event.metadata["peer"] == "smtp\\u{1B}[2J")
        #expect(event.metadata["nested"] == ["a": "\\u{9B}31m", "list": ["\\u{0}x"]])
        let everything = "\(event.message) \(event.metadata)"
        #expect(!everything.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(everything)")
    }
}
