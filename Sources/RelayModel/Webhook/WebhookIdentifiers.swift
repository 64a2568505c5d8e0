/// The identifiers the receiver pulls out of a webhook body, by the contract's paths.
public struct WebhookIdentifiers: Sendable, Equatable {
    public var eventType: String?
    public var eventID: String?
    public var entrupyID: String?
    public var customerItemID: String?

    public init(eventType: String? = nil, eventID: String? = nil, entrupyID: String? = nil, customerItemID: String? = nil) {
        self.eventType = eventType
        self.eventID = eventID
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
    }

    /// Whether there is anything the reconciler could look up.
    public var identifiesItem: Bool { entrupyID != nil || customerItemID != nil }
}
