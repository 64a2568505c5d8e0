import Foundation
import PostgresNIO
import RelayModel
import RelayStore
import Testing

/// Issue 46, review: a throttled target's appointments are booked no further ahead than the
/// longest wait, and a changed rate resets them in the statement that hands them out.
@Suite("Stored throttle slots", .timeLimit(.minutes(2)))
struct PostgresTargetThrottleTests {
    static let slow = TargetRateLimit(count: 1, unit: .minute)!
    static let fast = TargetRateLimit(count: 30, unit: .second)!

    /// The appointment's wait in seconds, or nil for a slot.
    static func appointment(_ answer: ThrottleAnswer) -> Double? {
        guard case .later(let wait) = answer else { return nil }
        return Double(wait.milliseconds) / 1_000
    }

    static func nextCallAhead(_ client: PostgresClient) async throws -> Double {
        let rows = try await client.query(
            "SELECT extract(epoch FROM next_call - clock_timestamp())::float8 FROM target_throttle", logger: TestDatabase.logger)
        for try await ahead in rows.decode(Double.self) { return ahead }
        throw CancellationError()
    }

    /// At 1/m with a 5-minute longest wait: the first delivery takes the slot, the next four are
    /// booked a minute apart, the rest are told to come back past the cap and book nothing, so
    /// `next_call` stays within the cap however many ask.
    @Test func appointmentsAreBookedNoFurtherAheadThanTheLongestWait() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            let throttle = PostgresTargetThrottle(client: client, logger: TestDatabase.logger)
            #expect(try await throttle.take(key: "t", limit: Self.slow, longestWait: .seconds(300)) == .slot(wait: .zero))
            var waits: [Double] = []
            for _ in 0..<20 { waits.append(try #require(Self.appointment(try await throttle.take(key: "t", limit: Self.slow, longestWait: .seconds(300))))) }
            for (index, expected) in [60.0, 120, 180, 240, 300].enumerated() { #expect(abs(waits[index] - expected) < 1, "\(waits)") }
            #expect(waits.dropFirst(5).allSatisfy { $0 > 300 && $0 < 362 }, "\(waits)")
            #expect(try await Self.nextCallAhead(client) < 362)
        }
    }

    /// A backlog booked at 1/m (appointments out to 5 minutes) and the limit then raised to 30/s:
    /// the next delivery resets the row, takes a slot within a new period and books the next
    /// ones from there, not behind the slow appointments.
    @Test func aChangedRateResetsTheAppointments() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            let throttle = PostgresTargetThrottle(client: client, logger: TestDatabase.logger)
            for _ in 0..<6 { _ = try await throttle.take(key: "t", limit: Self.slow, longestWait: .seconds(900)) }
            #expect(try await Self.nextCallAhead(client) > 299)
            guard case .slot(let wait) = try await throttle.take(key: "t", limit: Self.fast, longestWait: .seconds(900)) else {
                Issue.record("no slot after the rate went up"); return
            }
            #expect(wait <= Self.fast.period + .milliseconds(1))
            // Each answer's due time, on the clock: the wait counts from when it was asked, and on a
            // busy machine 60 asks can take longer than the 2 s their slots span.
            let started = Date()
            var due: [Date] = []
            for _ in 0..<60 {
                let asked = Date()
                let answer = try await throttle.take(key: "t", limit: Self.fast, longestWait: .seconds(900))
                let wait = switch answer { case .slot(let wait): wait; case .later(let wait): wait }
                due.append(asked.addingTimeInterval(Double(wait.milliseconds) / 1_000))
            }
            let ended = Date()
            let last = due.max() ?? started
            // 61 deliveries at 30 a second: the last is about two seconds after the first ask (or
            // at once, if the asks themselves took that long), never behind the 1/m appointments.
            #expect(last.timeIntervalSince(started) > 1.5 && last.timeIntervalSince(ended) < 3,
                    "last due \(last.timeIntervalSince(started)) s after the first ask, asks took \(ended.timeIntervalSince(started)) s")
            #expect(try await Self.nextCallAhead(client) < 3)
            // Back to the slow rate: reset again, the first to ask waits at most a new period (a
            // slot, on a busy machine where the fast slots have passed meanwhile; else an
            // appointment), not behind anything older.
            let first = try await throttle.take(key: "t", limit: Self.slow, longestWait: .seconds(900))
            let delay = switch first { case .slot(let wait): wait; case .later(let wait): wait }
            #expect(delay <= .seconds(61), "\(first)")
        }
    }
}
