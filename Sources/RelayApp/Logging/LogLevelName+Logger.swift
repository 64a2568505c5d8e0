public import Logging
public import RelayModel

extension LogLevelName {
    /// swift-log's level for this setting: one case for each, so a new name cannot silently
    /// become `info`.
    public var loggerLevel: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}
