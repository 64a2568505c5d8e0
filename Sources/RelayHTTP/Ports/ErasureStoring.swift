public import RelayModel

/// Erasure, as the API runs it (`PostgresErasureStore`).
public protocol ErasureStoring: Sendable {
    func erase(_ selector: ErasureSelector, requestedBy: String, dryRun: Bool) async throws -> ErasureReport
    func list(limit: Int) async throws -> [ErasureRecord]
}
