import Logging
public import RelayModel
import Synchronization

/// Sets up swift-log once per process: JSON lines (`ENTRUPY_RELAY_LOG_FORMAT=json`, the default) or
/// swift-log's plain text (`ENTRUPY_RELAY_LOG_FORMAT=text`), at `ENTRUPY_RELAY_LOG_LEVEL`.
public enum LogBootstrap {
    private static let done = Mutex(false)

    public static func bootstrap(level: LogLevelName, format: LogFormat) {
        let first = done.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let swiftLevel = level.loggerLevel
        if format == .text {
            LoggingSystem.bootstrap { label in
                var handler = PrintableLogHandler(wrapped: StreamLogHandler.standardError(label: label))
                handler.logLevel = swiftLevel
                return handler
            }
        } else {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label, logLevel: swiftLevel) }
        }
    }
}
