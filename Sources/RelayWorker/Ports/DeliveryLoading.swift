public import RelayModel

/// Where the deliver handler reads a delivery (`PostgresDeliveryStore`, wired in
/// RelayApp): a claimed batch's deliveries in one call. Its attempt and new state go back with
/// the job's outcome (`DeliveryAttemptWrite`), not through this port.
public protocol DeliveryLoading: Sendable {
    func deliveries(ids: [Int64]) async throws -> [Int64: DeliveryRecord]
}
