public import RelayModel

/// The SDK users the relay authorised, so support can find their items by username.
public protocol SDKUserStore: Sendable {
    @discardableResult func record(_ user: SDKUserRecord) async throws -> SDKUserRecord
    /// A 409 that named no username: the user's row, if the relay has one, counts the call and
    /// the conflict and keeps everything else. Answers the stored username (nil: none).
    func recordConflict(uniqueUserID: String) async throws -> String?
}
