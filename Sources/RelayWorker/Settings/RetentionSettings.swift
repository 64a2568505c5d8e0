public import RelayModel
public import RelayRuntime

/// How long each kind of data is kept (`RetentionPolicy`) and how the pruner paces itself.
public struct RetentionSettings: Sendable {
    public var policy: RetentionPolicy
    public var intervalSeconds: Int
    public var batchSize: Int
    public var pauseMilliseconds: Int
    public var maxWALKilobytesPerSecond: Int

    /// The pruner's pace as these settings give it.
    public var pacing: PrunePacing {
        PrunePacing(largestBatch: batchSize, pause: .milliseconds(pauseMilliseconds), walBytesPerSecond: maxWALKilobytesPerSecond * 1024)
    }

    public init(reader: SettingsReader) throws {
        var days: [RetentionKind: Int] = [:]
        for (kind, setting) in Self.days { days[kind] = try reader.integer(setting) }
        policy = RetentionPolicy(days: days)
        if let problem = policy.problems.first {
            throw SettingsError.invalid(name: "ENTRUPY_RELAY_RETENTION_*", reason: problem)
        }
        intervalSeconds = try reader.integer(Self.interval)
        batchSize = try reader.integer(Self.batch)
        pauseMilliseconds = try reader.integer(Self.pause)
        maxWALKilobytesPerSecond = try reader.integer(Self.maxWAL)
    }
}
