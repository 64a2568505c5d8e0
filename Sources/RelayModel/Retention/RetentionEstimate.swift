/// What pruning one kind would remove now.
public struct RetentionEstimate: Sendable, Equatable {
    public var kind: RetentionKind
    public var rows: Int
    /// Stored bytes freed for reuse (the payload's own size, or rows times the table's average
    /// row with its indexes): disk space returns to the system only after a VACUUM FULL.
    public var bytes: Int64

    public init(kind: RetentionKind, rows: Int, bytes: Int64) {
        self.kind = kind
        self.rows = rows
        self.bytes = bytes
    }
}
