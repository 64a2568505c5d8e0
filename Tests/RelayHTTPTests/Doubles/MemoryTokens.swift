@testable import RelayModel
@testable import RelayHTTP

/// A token per role: `admin-token`, `support-token`, `consumer-token`.
struct MemoryTokens: TokenChecking {
    static func token(for role: Role) -> String { "\(role.rawValue)-token" }

    func authenticate(_ token: String) async throws -> Caller? {
        guard let index = Role.allCases.firstIndex(where: { Self.token(for: $0) == token }) else { return nil }
        let role = Role.allCases[index]
        return Caller(tokenID: Int64(index) + 1, name: role.rawValue, role: role)
    }
}
