import Logging
import Synchronization

/// A log handler that keeps every message it is given, for tests that expect a warning (or
/// its absence).
final class CapturedLogs: Sendable {
    private let messages = Mutex<[String]>([])

    /// A logger whose messages land here.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label) { _ in Handler(sink: self) }
        logger.logLevel = .debug
        return logger
    }

    /// Every message so far that contains `text`, with its metadata.
    func matching(_ text: String) -> [String] {
        messages.withLock { $0.filter { $0.contains(text) } }
    }

    fileprivate func append(_ line: String) {
        messages.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            let all = metadata.merging(extra ?? [:]) { _, new in new }
            sink.append("\(level) \(message) \(all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        }
    }
}
