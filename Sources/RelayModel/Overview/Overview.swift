public import Foundation

/// The picture at a glance (the console's overview): the last `days` days, by UTC day.
public struct Overview: Sendable, Equatable {
    public struct Day: Sendable, Equatable {
        public var day: Date
        /// Items submitted that day, by result ('' when none yet), from the count rollup.
        public var byResult: [String: Int]
        public var flagged: Int
        public var total: Int { byResult.values.reduce(0, +) }

        public init(day: Date, byResult: [String: Int], flagged: Int) {
            self.day = day
            self.byResult = byResult
            self.flagged = flagged
        }
    }

    /// Submission to the relay seeing the final result, for results that became final that day.
    public struct Latency: Sendable, Equatable {
        public var day: Date
        public var count: Int
        public var medianSeconds: Double
        public var p90Seconds: Double

        public init(day: Date, count: Int, medianSeconds: Double, p90Seconds: Double) {
            self.day = day
            self.count = count
            self.medianSeconds = medianSeconds
            self.p90Seconds = p90Seconds
        }
    }

    public var days: [Day]
    public var latency: [Latency]
    /// Deliveries created in the period, by state.
    public var deliveries: [DeliveryState: Int]
    public var queueAvailable: Int
    /// Age of the oldest job waiting to run (0 when none): how far behind the queue is.
    public var queueLagSeconds: Double
    public var queueDead: Int

    public init(days: [Day], latency: [Latency], deliveries: [DeliveryState: Int], queueAvailable: Int, queueLagSeconds: Double, queueDead: Int) {
        self.days = days
        self.latency = latency
        self.deliveries = deliveries
        self.queueAvailable = queueAvailable
        self.queueLagSeconds = queueLagSeconds
        self.queueDead = queueDead
    }

    public var flagRate: Double {
        let total = days.reduce(0) { $0 + $1.total }
        return total == 0 ? 0 : Double(days.reduce(0) { $0 + $1.flagged }) / Double(total)
    }
}
