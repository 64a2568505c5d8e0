public import RelayModel
public import RelayRuntime

/// The settings `RetentionSettings` reads, as the reference gives them.
extension RetentionSettings {
    /// Each kind's setting, in the reference's order; 0 keeps that kind for ever.
    public static let days: [(RetentionKind, IntegerSetting)] = RetentionKind.allCases.map { kind in
        (kind, IntegerSetting("retention_\(kind.rawValue)_days", default: RetentionPolicy.standard.days[kind] ?? 0, range: 0...36_500,
                              "\(kind.removes) after this many days\(kind.countedFrom); 0 keeps them for ever",
                              audience: kind == .webhookBodies ? .operator(why: "when your privacy policy or disputes ask to keep people's data shorter or longer") : .tuning))
    }
    public static let interval = IntegerSetting("retention_interval_seconds", default: 600, range: 10...86_400,
        "how often the pruner runs (one replica at a time)")
    public static let batch = IntegerSetting("retention_batch_size", default: 1_000, range: 10...100_000,
        "rows one pruning statement removes at most")
    public static let pause = IntegerSetting("retention_pause_ms", default: 100, range: 0...60_000,
        "the pruner's pause between two batches, so that it never holds the database's attention for long")

    public static let maxWAL = IntegerSetting("retention_max_wal_kb_per_second", default: 2_048, range: 0...1_048_576,
        "write-ahead log the pruner may write a second on average, each batch sized to a quarter of it, so that the "
            + "commits of webhooks and jobs never wait long behind it (0: no limit, only the batch size and the pause)")

    public static let catalog: [Setting] = days.map(\.1.setting) + [interval.setting, batch.setting, pause.setting, maxWAL.setting]
}

extension RetentionKind {
    /// From when a row's age counts, where that is not when it was made.
    var countedFrom: String {
        switch self {
        case .deliveryPayloads, .deliveryAttempts: " (counted from when the delivery was delivered or went dead)"
        case .sdkUsers: " without an authorisation"
        default: ""
        }
    }
}
