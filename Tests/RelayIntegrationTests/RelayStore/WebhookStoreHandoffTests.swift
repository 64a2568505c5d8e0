import Foundation
import PostgresNIO
import RelayDatabase
import RelayModel
import RelayQueue
import RelayRuntime
import RelayStore
import Synchronization
import Testing

/// The receiver's batch, when `serve` runs the worker: its reconcile jobs go in claimed by that
/// worker (up to its free slots) and are handed to it once durable, with no NOTIFY unless some
/// went in available for the others.
@Suite("The receiver hands its jobs to the worker of its process", .timeLimit(.minutes(2)))
struct WebhookStoreHandoffTests {
    /// Records what it is handed, with `free` slots.
    final class Recorder: JobAdopter {
        let free: Int
        let handed = Mutex<[ClaimedJob]>([])
        init(free: Int) { self.free = free }
        func lease(forRunning kind: String) -> JobLease? {
            kind == ReconcileWebhookJob.kind && free > 0 ? JobLease(worker: "serve-worker", duration: .seconds(30), limit: free) : nil
        }
        func adopt(_ jobs: [ClaimedJob]) { handed.withLock { $0 += jobs } }
    }

    static func events(_ ids: [String]) -> [NewWebhookEvent] {
        ids.map { id in
            let body = Array(#"{"event":"session.completed","id":"\#(id)","entrupy_id":"E-\#(id)"}"#.utf8)
            return NewWebhookEvent(body: body, parsed: WebhookPayloadParser.parse(body: body, headers: [:], verifiedBy: .entrupy),
                                   verifiedBy: .entrupy, headers: ["content-type": "application/json"], clientAddress: nil, requestID: id)
        }
    }

    /// Whether `store` sends a NOTIFY on the workers' channel (waiting up to a second for one).
    static func notifies(_ client: PostgresClient, _ store: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        try await client.withConnection { connection in
            try await connection.listen(on: PostgresJobQueue.channel) { notifications in
                try await store()
                let got = try? await withDeadline(.seconds(1)) {
                    for try await _ in notifications { return true }
                    return false
                }
                return got == true
            }
        }
    }

    @Test func everyJobHandedOverMeansNoNotify() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let recorder = Recorder(free: 8)
            let store = PostgresWebhookEventStore(client: client, logger: TestDatabase.logger, handoff: recorder)
            let notified = try await Self.notifies(client) { _ = try await store.store(Self.events(["a", "b", "c"])) }
            #expect(!notified, "the worker has them all: nobody to wake")
            let handed = recorder.handed.withLock { $0 }
            #expect(handed.map(\.kind) == Array(repeating: ReconcileWebhookJob.kind, count: 3))
            #expect(handed.map(\.attempt) == [1, 1, 1])
            let rows = try await PostgresJobQueueFactory.make(client).list(state: nil, limit: 10)
            #expect(rows.map(\.state) == [.running, .running, .running])
            #expect(Set(rows.map(\.id)) == Set(handed.map(\.id)))
            #expect(rows.allSatisfy { $0.leasedBy == "serve-worker" })
            // A duplicate queues nothing, and hands nothing.
            _ = try await store.store(Self.events(["a"]))
            #expect(recorder.handed.withLock { $0.count } == 3)
        }
    }

    @Test func jobsPastTheFreeSlotsGoInAvailableAndWakeTheOthers() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let recorder = Recorder(free: 1)
            let store = PostgresWebhookEventStore(client: client, logger: TestDatabase.logger, handoff: recorder)
            let notified = try await Self.notifies(client) { _ = try await store.store(Self.events(["a", "b"])) }
            #expect(notified)
            #expect(recorder.handed.withLock { $0.count } == 1)
            let rows = try await PostgresJobQueueFactory.make(client).list(state: nil, limit: 10)
            #expect(rows.map(\.state).sorted { $0.rawValue < $1.rawValue } == [.available, .running])
        }
        // No worker in the process (`serve --no-worker`): every job available, and a NOTIFY.
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresWebhookEventStore(client: client, logger: TestDatabase.logger)
            #expect(try await Self.notifies(client) { _ = try await store.store(Self.events(["a"])) })
            #expect(try await PostgresJobQueueFactory.make(client).list(state: nil, limit: 10).map(\.state) == [.available])
        }
    }
}
