/// Queue depth for metrics: jobs ready to run now, and how long the oldest has waited.
public struct QueueStats: Sendable, Equatable {
    public var available: Int
    public var oldestAvailableSeconds: Double
    public var running: Int
    public var dead: Int

    public init(available: Int, oldestAvailableSeconds: Double, running: Int, dead: Int) {
        self.available = available
        self.oldestAvailableSeconds = oldestAvailableSeconds
        self.running = running
        self.dead = dead
    }
}
