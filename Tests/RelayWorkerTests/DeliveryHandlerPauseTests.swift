import Foundation
import Logging
import RelayModel
import RelayQueue
import RelayRules
import RelayStore
import RelayWorker
import Synchronization
import Testing

/// Silences and quiet hours in the deliver handler, on in-memory ports: what is recorded with
/// the job instead of an attempt, and what is still sent.
@Suite("The deliver handler's silences and quiet hours")
struct DeliveryHandlerPauseTests {
    /// Silences as a worker reads them; counts the reads and the item lookups.
    final class Silences: SilenceReading, Sendable {
        let silences: [Silence]
        let item: EntrupyItem?
        let reads = Mutex(0), lookups = Mutex(0)

        init(_ silences: [Silence], item: EntrupyItem? = nil) {
            self.silences = silences
            self.item = item
        }

        func inForce(ahead: Duration) async throws -> (silences: [Silence], now: Date) {
            reads.withLock { $0 += 1 }
            return (silences, Date())
        }

        func silenceFields(entrupyID: String) async throws -> EntrupyItem? {
            lookups.withLock { $0 += 1 }
            return item
        }
    }

    /// The writes as the worker is wired with them (`DeliveryOutcomeWrites`, in RelayApp).
    struct PausesWithTheJob: DeliveryPauseRecording {
        let writes = DeliveryOutcomeWrites()

        func finish(recordingSilenceOf deliveryID: Int64, by silenceID: Int64) -> JobResult {
            writes.finish(recordingSilenceOf: deliveryID, by: silenceID)
        }

        func finish(snoozing wait: Duration, recordingQuietHoldOf deliveryID: Int64, until: Date) -> JobResult {
            writes.finish(snoozing: wait, recordingQuietHoldOf: deliveryID, until: until)
        }
    }

    static func silence(id: Int64 = 9, rule: String? = "r", _ fields: [String: [String]] = [:], ends: TimeInterval = 3_600) throws -> Silence {
        var matchers = SilenceMatchers()
        for (field, values) in fields { try matchers.set(field, values) }
        return Silence(id: id, rule: rule, matchers: matchers, author: "token ops", reason: "incident", startsAt: Date().addingTimeInterval(-60),
                       expiresAt: Date().addingTimeInterval(ends), createdAt: Date())
    }

    static func handler(_ deliveries: [DeliveryRecord], callbacks: ScriptedSender, silences: Silences,
                        quiet: QuietHours? = nil) -> DeliveryHandler {
        DeliveryHandlerTests.handler(deliveries, callbacks: callbacks).pausing(DeliveryPauses(
            silences: SilenceCache(reader: silences, logger: DeliveryHandlerTests.logger), reader: silences,
            quietHours: { $0 == "r" ? quiet : nil }, records: PausesWithTheJob()))
    }

    static let ok = AttemptReport(result: .delivered, statusCode: 200, excerpt: "ok")

    @Test func aMatchingSilenceRecordsTheDeliverySilencedAndSendsNothing() async throws {
        let callbacks = ScriptedSender(Self.ok)
        let silences = Silences([try Self.silence(["transition": ["result.final"]])])
        let result = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: callbacks, silences: silences), 1)
        #expect(result.outcome == .completed)
        #expect(result.record as? DeliverySilenceWrite == DeliverySilenceWrite(deliveryID: 1, silenceID: 9))
        #expect(callbacks.sent.isEmpty)
        #expect(silences.lookups.withLock { $0 } == 0, "a silence naming no item field reads no item")
    }

    @Test func anotherRuleAnExpiredSilenceOrAnotherBrandAreSent() async throws {
        let adidas = EntrupyItem(entrupyID: "E1", brand: "adidas")
        for silence in [try Self.silence(rule: "other"), try Self.silence(ends: -1), try Self.silence(["brand": ["nike"]])] {
            let callbacks = ScriptedSender(Self.ok)
            let result = try await DeliveryHandlerTests.run(
                Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: callbacks, silences: Silences([silence], item: adidas)), 1)
            #expect(result.record is DeliveryAttemptWrite, "\(silence)")
            #expect(callbacks.sent == [1])
        }
    }

    @Test func aRedriveAfterASilenceIsSentWhileTheSilenceHolds() async throws {
        var redriven = DeliveryHandlerTests.delivery(1)
        redriven.silenceID = 9
        let callbacks = ScriptedSender(Self.ok)
        let result = try await DeliveryHandlerTests.run(
            Self.handler([redriven], callbacks: callbacks, silences: Silences([try Self.silence()])), 1)
        #expect(result.record is DeliveryAttemptWrite)
        #expect(callbacks.sent == [1])
    }

    @Test func theSilencesAreReadOnceForManyDeliveries() async throws {
        let silences = Silences([])
        let callbacks = ScriptedSender(Self.ok, Self.ok, Self.ok)
        let handler = Self.handler((1...3).map { DeliveryHandlerTests.delivery($0) }, callbacks: callbacks, silences: silences)
        for id in 1...3 { _ = try await DeliveryHandlerTests.run(handler, Int64(id)) }
        #expect(silences.reads.withLock { $0 } == 1)
    }

    @Test func insideQuietHoursTheJobSleepsUntilTheWindowEnds() async throws {
        let now = Date()
        let seconds = Int(now.timeIntervalSince1970) % 86_400
        let quiet = QuietHours(from: (seconds + 86_400 - 60) % 86_400, to: (seconds + 600) % 86_400, timeZone: TimeZone(identifier: "UTC")!)
        let callbacks = ScriptedSender(Self.ok)
        let result = try await DeliveryHandlerTests.run(
            Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: callbacks, silences: Silences([]), quiet: quiet), 1)
        let write = try #require(result.record as? DeliveryQuietWrite)
        #expect(abs(write.until.timeIntervalSince(now) - 600) < 2)
        guard case .snooze(let wait) = result.outcome else { Issue.record("not snoozed"); return }
        #expect(wait >= .seconds(598) && wait <= .seconds(603))
        #expect(callbacks.sent.isEmpty)

        let outside = QuietHours(from: (seconds + 600) % 86_400, to: (seconds + 1_200) % 86_400, timeZone: TimeZone(identifier: "UTC")!)
        let sent = try await DeliveryHandlerTests.run(
            Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: callbacks, silences: Silences([]), quiet: outside), 1)
        #expect(sent.record is DeliveryAttemptWrite)
    }

    @Test func aLongWindowIsRecheckedEveryFifteenMinutes() async throws {
        let seconds = Int(Date().timeIntervalSince1970) % 86_400
        let quiet = QuietHours(from: (seconds + 86_400 - 60) % 86_400, to: (seconds + 7_200) % 86_400, timeZone: TimeZone(identifier: "UTC")!)
        let result = try await DeliveryHandlerTests.run(
            Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: ScriptedSender(Self.ok), silences: Silences([]), quiet: quiet), 1)
        #expect(result.outcome == .snooze(DeliveryHandler.quietRecheck))
        #expect(result.record is DeliveryQuietWrite)
    }
}
