@testable import RelayHTTP
@testable import RelayStore

struct MemorySDKUsers: SDKUserStore {
    func record(_ user: SDKUserRecord) async throws -> SDKUserRecord { user }
}
