public import RelayModel
public import RelayRules

/// What may stop a delivery before it is attempted: a silence in force that matches it, or its
/// rule's quiet hours. Without it (the default) the deliver handler checks neither.
public struct DeliveryPauses: Sendable {
    let silences: SilenceCache
    let reader: any SilenceReading
    /// The quiet hours of a rule by name, from the rules in force; nil when it has none.
    let quietHours: @Sendable (String) -> QuietHours?
    let records: any DeliveryPauseRecording

    public init(silences: SilenceCache, reader: any SilenceReading, quietHours: @escaping @Sendable (String) -> QuietHours?,
                records: any DeliveryPauseRecording) {
        self.silences = silences
        self.reader = reader
        self.quietHours = quietHours
        self.records = records
    }
}
