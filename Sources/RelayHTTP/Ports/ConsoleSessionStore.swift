public import RelayModel

/// The console's signed-in sessions.
public protocol ConsoleSessionStore: Sendable {
    func create(for caller: Caller, lifetime: Duration) async throws -> (id: String, csrfToken: String)
    func find(_ id: String) async throws -> ConsoleSession?
    func delete(_ id: String) async throws
}
