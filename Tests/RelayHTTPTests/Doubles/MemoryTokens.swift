@testable import RelayCore
@testable import RelayHTTP
@testable import RelayStore

/// A token per role: `admin-token`, `support-token`, `consumer-token`.
struct MemoryTokens: TokenChecking {
    static func token(for role: Role) -> String { "\(role.rawValue)-token" }

    func authenticate(_ token: String) async throws -> Caller? {
        guard let role = Role.allCases.first(where: { Self.token(for: $0) == token }) else { return nil }
        return Caller(tokenID: 1, name: role.rawValue, role: role)
    }
}
