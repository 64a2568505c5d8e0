import RelayModel
@testable import RelayHTTP

struct MemorySDKUsers: SDKUserStore {
    func record(_ user: SDKUserRecord) async throws -> SDKUserRecord { user }
    func recordConflict(uniqueUserID: String) async throws -> String? { nil }
}
