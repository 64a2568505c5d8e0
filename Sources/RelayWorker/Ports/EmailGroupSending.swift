public import Foundation
public import RelayModel

/// Where an email group's deliveries are locked while their one email is sent, and settled
/// together (`PostgresDeliveryStore.sendGroup`).
public protocol EmailGroupSending: Sendable {
    /// Locks the group's deliveries that may be attempted now and were created no later than
    /// `createdBy` (oldest first, at most `limit`); when `deliveryID` is among them, runs
    /// `send` with them and records what it returns (settlements, and the members silenced)
    /// before the lock is released.
    /// Nil, sending nothing, when `deliveryID` is not among them.
    func sendGroup(of deliveryID: Int64, rule: String, actionIndex: Int, key: String, createdBy: Date, limit: Int,
                   _ send: @escaping @Sendable ([DeliveryRecord]) async throws -> GroupSend) async throws -> GroupSend?
}
