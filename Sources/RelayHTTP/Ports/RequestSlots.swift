import RelayModel
public import Foundation

/// Requests under way per token, across every replica (`ENTRUPY_RELAY_API_TOKEN_CONCURRENCY`).
public protocol RequestSlots: Sendable {
    /// A slot for `tokenID` when fewer than `limit` are taken, or nil; `give` returns it.
    func take(tokenID: Int64, limit: Int) async throws -> Date?
    func give(tokenID: Int64, stamp: Date) async
}

/// One process's count (router tests, tools without a database).
public final class MemoryRequestSlots: RequestSlots {
    let counter = SlotCounter<Int64>(limit: .max)

    public init() {}

    public func take(tokenID: Int64, limit: Int) async throws -> Date? {
        counter.take(tokenID, limit: limit) ? Date() : nil
    }

    public func give(tokenID: Int64, stamp: Date) async {
        counter.give(tokenID)
    }
}
