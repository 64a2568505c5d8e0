/// The organisation's own ID for a submitter as a reconcile rendered its deliveries with it
/// (`unique_user_id` from the SDK users mirror, nil when the mirror has none). The store may
/// answer the lookup from memory; the commit compares it with the mirror and is refused when
/// it changed, so no delivery goes out with an ID the mirror no longer holds.
public struct SubmitterLookup: Sendable, Equatable {
    /// The Entrupy username looked up.
    public var username: String
    public var uniqueUserID: String?

    public init(username: String, uniqueUserID: String?) {
        self.username = username
        self.uniqueUserID = uniqueUserID
    }
}
