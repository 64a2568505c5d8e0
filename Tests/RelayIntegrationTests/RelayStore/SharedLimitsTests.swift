import Foundation
import RelayModel
import RelayRuntime
import RelayStore
import Synchronization
import Testing

/// Issue 27, 3, 4 and the "also": caps every replica shares through PostgreSQL (each process
/// counting alone let N replicas allow N times the limit), tokens that expire, a public schema
/// nobody else may create in.
@Suite("Limits shared by replicas", .timeLimit(.minutes(3)))
struct SharedLimitsTests {
    @Test func failedSignInsAreCountedAcrossReplicas() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let replicas = (0..<3).map { _ in
                PostgresSignInLimiter(client: client, limit: 3, window: .seconds(60), logger: TestDatabase.logger)
            }
            #expect(try await replicas[0].recordFailure("203.0.113.5") == nil)
            #expect(try await replicas[1].recordFailure("203.0.113.5") == nil)
            // The third failure, on a third replica, uses up the address's allowance.
            let wait = try #require(try await replicas[2].recordFailure("203.0.113.5"))
            #expect(wait > .seconds(50) && wait <= .seconds(60))
            // Another address is not affected.
            #expect(try await replicas[0].recordFailure("203.0.113.6") == nil)
        }
    }

    @Test func aTokensRequestSlotsAreSharedAndLapse() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let a = PostgresRequestSlots(client: client, lifetime: .seconds(2), logger: TestDatabase.logger)
            let b = PostgresRequestSlots(client: client, lifetime: .seconds(2), logger: TestDatabase.logger)
            let first = try #require(try await a.take(tokenID: 7, limit: 2))
            #expect(try await b.take(tokenID: 7, limit: 2) != nil)
            #expect(try await a.take(tokenID: 7, limit: 2) == nil, "the third, on either replica, is refused")
            #expect(try await b.take(tokenID: 8, limit: 2) != nil, "another token has its own slots")
            await a.give(tokenID: 7, stamp: first)
            #expect(try await b.take(tokenID: 7, limit: 2) != nil, "a slot given back is free again")
            // Slots a crashed process never gave back lapse on their own.
            try await Task.sleep(for: .milliseconds(2_200))
            #expect(try await a.take(tokenID: 7, limit: 2) != nil)
            #expect(try await a.take(tokenID: 7, limit: 2) != nil)
        }
    }

    /// Every slot given back is found again, whatever its time: a stamp that came back from
    /// PostgreSQL as a `Date` and was bound again could miss by a microsecond (postgres-nio
    /// truncates when it encodes), leaving the slot held until it lapsed.
    @Test func everySlotGivenBackIsFreedAtOnce() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            let slots = PostgresRequestSlots(client: client, logger: TestDatabase.logger)
            for round in 0..<300 {
                let stamp = try #require(try await slots.take(tokenID: 9, limit: 1), "round \(round): the only slot is taken")
                await slots.give(tokenID: 9, stamp: stamp)
            }
            #expect(try await slots.take(tokenID: 9, limit: 1) != nil)
        }
    }

    @Test func sdkAuthorizeIsLimitedPerToken() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let rate = PostgresCallerRate(client: client, route: "sdk_authorize", limit: 3, window: .seconds(60), logger: TestDatabase.logger)
            for _ in 0..<3 { #expect(try await rate.take(tokenID: 1) == nil) }
            let wait = try #require(try await rate.take(tokenID: 1))
            #expect(wait > .seconds(30))
            #expect(try await rate.take(tokenID: 2) == nil, "another token has its own allowance")
        }
    }

    /// One token's SDK sign-ins could take 80 % of the Entrupy budget; people now get at most 30 %.
    @Test func peopleTakeAtMostAThirdOfTheEntrupyBudget() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let budget = PostgresAPIBudget(client: client, ratePerSecond: 10, logger: TestDatabase.logger)
            for _ in 0..<3 { try await budget.acquire(.interactive) }
            let fourth = Mutex(false)
            let waiting = Task {
                try await budget.acquire(.interactive)
                fourth.withLock { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!fourth.withLock { $0 }, "a fourth interactive call waits for the window")
            // Sync (background) still gets its turn, and webhooks theirs.
            try await budget.acquire(.background)
            try await budget.acquire(.webhook)
            waiting.cancel()
            _ = try? await waiting.value
        }
    }

    @Test func anExpiredTokenIsRefusedAndListed() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let tokens = PostgresTokenStore(client: client, logger: TestDatabase.logger)
            let created = try await tokens.create(name: "short-lived", role: .support, expiresInDays: 1)
            #expect(created.record.expiresAt != nil)
            #expect(try await tokens.authenticate(created.token) != nil)
            try await client.query("UPDATE api_tokens SET expires_at = now() - interval '1 second'", logger: TestDatabase.logger)
            #expect(try await tokens.authenticate(created.token) == nil)
            let listed = try #require(try await tokens.list().first)
            #expect(listed.expiresAt != nil && listed.lastUsedAt != nil)
        }
    }

    @Test func nobodyElseMayCreateInThePublicSchema() async throws {
        try await TestDatabase.with { db async throws in
            #expect(try await TestDatabase.scalar(db, "SELECT has_schema_privilege('public', 'public', 'CREATE')::int") == 0)
        }
    }
}
