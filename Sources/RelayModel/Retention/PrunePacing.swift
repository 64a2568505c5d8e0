/// How fast the pruner goes: the rows of its next batch and the wait after each batch, from
/// what the batch wrote to PostgreSQL's write-ahead log (WAL). Every commit on the hot path (a
/// webhook stored, a job claimed) waits until the WAL before it is on disk, so a batch that
/// writes megabytes delays the commits behind it by as long as the disk takes to write them,
/// and sooner checkpoints make the next writes costlier still. With a budget of WAL bytes a
/// second, each batch is sized to write about a quarter of a second's budget (the most one
/// commit waits behind), and the wait after it lets the average stay within the budget. Without
/// a budget, batches are the largest allowed, `pause` apart. Pure: the `Pruner` feeds it.
public struct PrunePacing: Sendable, Equatable {
    /// The smallest batch the budget shrinks a batch to (one row at a time would cost more in
    /// round trips than it saves).
    public static let smallestBatch = 10

    public let largestBatch: Int
    public let pause: Duration
    /// WAL bytes a second the pruner may write on average; 0: no budget.
    public let walBytesPerSecond: Int
    /// Rows the next batch may remove.
    public private(set) var batch: Int

    public init(largestBatch: Int, pause: Duration, walBytesPerSecond: Int) {
        self.largestBatch = max(1, largestBatch)
        self.pause = max(.zero, pause)
        self.walBytesPerSecond = max(0, walBytesPerSecond)
        // With a budget, the first batch is small: its WAL per row sizes the next ones.
        batch = walBytesPerSecond > 0 ? min(self.largestBatch, 100) : self.largestBatch
    }

    /// The WAL one batch should write at most: a quarter of a second's budget.
    var slice: Double { Double(walBytesPerSecond) / 4 }

    /// After a batch that removed `rows` rows and wrote `walBytes` of WAL in `took` (nil: the
    /// WAL position could not be read, and only the pause paces): sets the next batch's size
    /// and answers how long to wait before it (never less than `pause`).
    public mutating func after(rows: Int, walBytes: Int64?, took: Duration) -> Duration {
        guard walBytesPerSecond > 0, let walBytes else { return pause }
        if rows > 0, walBytes > 0 {
            // The rows that would write one slice at this batch's WAL per row; at most twice
            // the batch (one row's cost varies with the pages a batch happens to touch).
            let fitting = Double(rows) * slice / Double(walBytes)
            let next = min(fitting, Double(batch) * 2, Double(largestBatch))
            batch = max(min(Self.smallestBatch, largestBatch), Int(next.rounded(.down)))
        }
        // At most a minute (whatever the WAL position said), so that a pass always moves on.
        let seconds = min(60, Double(max(0, walBytes)) / Double(walBytesPerSecond))
        return max(pause, .seconds(seconds) - took)
    }
}
