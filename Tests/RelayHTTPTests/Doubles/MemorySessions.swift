@testable import RelayModel
@testable import RelayHTTP
import Synchronization

/// Console sessions in memory: `session-<role>` with the CSRF token `csrf-<role>`.
final class MemorySessions: ConsoleSessionStore {
    let created = Mutex<[String: ConsoleSession]>([:])

    func create(for caller: Caller, lifetime: Duration) async throws -> (id: String, csrfToken: String) {
        let id = "new-\(caller.role.rawValue)"
        created.withLock { $0[id] = ConsoleSession(caller: caller, csrfToken: "csrf-new") }
        return (id, "csrf-new")
    }

    func find(_ id: String) async throws -> ConsoleSession? {
        if let role = Role.allCases.first(where: { "session-\($0.rawValue)" == id }) {
            return ConsoleSession(caller: Caller(tokenID: 1, name: role.rawValue, role: role), csrfToken: "csrf-\(role.rawValue)")
        }
        return created.withLock { $0[id] }
    }

    func delete(_ id: String) async throws {
        _ = created.withLock { $0.removeValue(forKey: id) }
    }
}
