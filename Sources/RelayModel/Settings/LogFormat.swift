/// The log formats accepted in `ENTRUPY_RELAY_LOG_FORMAT`: JSON lines (the default) or plain text.
public enum LogFormat: String, Sendable, CaseIterable {
    case json, text
}
