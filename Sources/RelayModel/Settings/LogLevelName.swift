/// The log levels accepted in `ENTRUPY_RELAY_LOG_LEVEL`, named as swift-log names them.
public enum LogLevelName: String, Sendable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
}
