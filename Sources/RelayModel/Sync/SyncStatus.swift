public import Foundation

/// What `sync status` and the metrics report: the last complete pass, and the one under way.
public struct SyncStatus: Sendable, Equatable {
    public var lastStartedAt: Date?
    public var lastFinishedAt: Date?
    public var lastItemsChecked: Int?
    public var lastChangesFound: Int?
    /// Seconds since the last complete pass finished, by the database's clock.
    public var lastAgeSeconds: Double?
    /// Seconds since the last complete pass started (passes are due `interval` after the last start).
    public var lastStartAgeSeconds: Double?
    public var current: SyncPass?
    public var lastError: String?
    public var lastErrorAt: Date?
    /// When each tier's last complete pass started, by tier name.
    public var tiersCompleted: [String: Date]

    public init(lastStartedAt: Date? = nil, lastFinishedAt: Date? = nil, lastItemsChecked: Int? = nil, lastChangesFound: Int? = nil,
                lastAgeSeconds: Double? = nil, lastStartAgeSeconds: Double? = nil, current: SyncPass? = nil, lastError: String? = nil, lastErrorAt: Date? = nil,
                tiersCompleted: [String: Date] = [:]) {
        self.tiersCompleted = tiersCompleted
        self.lastStartedAt = lastStartedAt
        self.lastFinishedAt = lastFinishedAt
        self.lastItemsChecked = lastItemsChecked
        self.lastChangesFound = lastChangesFound
        self.lastAgeSeconds = lastAgeSeconds
        self.lastStartAgeSeconds = lastStartAgeSeconds
        self.current = current
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
    }
}
