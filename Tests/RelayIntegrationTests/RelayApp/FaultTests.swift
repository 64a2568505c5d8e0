import Foundation
import RelayApp
import RelayModel
import RelayStore
import Testing

/// The fault suite (issue 10): hostile peers and killed processes against the real stack.
/// Each asserts what the relay promises whatever happens: nothing acknowledged is lost, no
/// transition is recorded twice, every delivery ends delivered or dead (or waits for a
/// capped Retry-After) with every attempt recorded, and no process crashes.
@Suite("Faults: hostile peers and killed processes", .timeLimit(.minutes(5)))
struct FaultTests {
    /// What each hostile path should come to after three attempts 200 ms apart. Retry-After is
    /// RFC 9110 delay-seconds or an HTTP-date: anything else (1e300, -5, 1.5) is ignored, and a
    /// huge or far-future one waits at most a day.
    static let peers: [(path: String, ends: DeliveryState)] = [
        ("/silent", .dead), ("/drip", .delivered), ("/reset", .dead), ("/garbage", .dead),
        ("/huge", .delivered), ("/gzip", .delivered), ("/nul", .delivered),
        ("/retry-after/-5", .dead), ("/retry-after/1.5", .dead), ("/retry-after/soon", .dead),
        ("/retry-after/0x10", .dead), ("/retry-after/Wed,%2021%20Oct%202015%2007:28:00%20GMT", .dead),
        ("/retry-after/1e300", .dead), ("/retry-after/99999999999999999999999", .failed),
        ("/retry-after/Fri,%2031%20Dec%209999%2023:59:59%20GMT", .failed),
    ]

    /// One worker process sends a callback to every hostile path. It survives them all (still
    /// running, and exits 0 on SIGTERM), each delivery ends as it should, and the attempt rows
    /// match the attempt counts. A Retry-After far in the future is capped at a day.
    @Test func hostileCallbackPeersNeverCrashOrLoseAnAttempt() async throws {
        try await HostileHTTPPeer.with { peer async throws in
            let actions = Self.peers.map { "      - webhook: {url: \"\(peer.url($0.path))\", secret: \"${CALLBACK_SECRET}\"}" }
            let env = try NotifyEnvironment.make(rules: """
                rules:
                  - name: hostile
                    when: {transition: [result.final]}
                    notify:
                \(actions.joined(separator: "\n"))
                """, schedule: "200ms,200ms", extra: ["ENTRUPY_RELAY_CALLBACK_TIMEOUT_SECONDS": "3", "ENTRUPY_RELAY_DELIVERY_TARGET_CONCURRENCY": "32"]
                    .merging(NotifyEnvironment.withoutBreaker) { $1 })
            try await ReconcileStack.with(env: env, worker: false) { stack async throws in
                let worker = try RelayProcess(["worker"], database: stack.database,
                                              env: WorkerProcessTests.workerEnv(stack.simulator, env))
                let id = try await stack.simulator.createItem("sku-hostile", result: "authentic", final: true)
                // Settled: delivered or dead, or waiting out a capped Retry-After (hours away).
                let settled = try await eventually(timeout: .seconds(150)) {
                    let found = try await NotifyEnvironment.deliveries(stack.database, item: id)
                    return found.count == Self.peers.count && found.allSatisfy { $0.state == .delivered || $0.state == .dead
                        || ($0.state == .failed && ($0.nextAttemptAt?.timeIntervalSinceNow ?? 0) > 3_600) }
                }
                #expect(settled)
                let deliveries = try await NotifyEnvironment.deliveries(stack.database, item: id)
                for (index, (path, ends)) in Self.peers.enumerated() {
                    // Targets show only scheme and host: the rule's action tells the peers apart.
                    guard let delivery = deliveries.first(where: { $0.actionIndex == index }) else {
                        Issue.record("no delivery for \(path)")
                        continue
                    }
                    #expect(delivery.state == ends, "\(path): \(delivery.state) after \(delivery.attempts), \(delivery.lastError ?? "-")")
                    let attempts = try await NotifyEnvironment.attempts(stack.database, delivery: delivery.id)
                    #expect(attempts.map(\.attempt) == Array(1...max(1, delivery.attempts)), "\(path): every attempt recorded once")
                    if ends == .failed, let next = delivery.nextAttemptAt {
                        #expect(next.timeIntervalSinceNow < 86_400 + 60, "\(path): Retry-After capped at a day")
                        #expect(next.timeIntervalSinceNow > 3_600, "\(path): but honoured")
                    }
                }
                // A 2xx with a binary or NUL body is delivered, and sent again only when an attempt
                // failed (timed out on a busy machine, say): the peer saw exactly the recorded attempts.
                for path in ["/nul", "/gzip", "/huge"] {
                    let index = Self.peers.firstIndex { $0.path == path }
                    let delivery = deliveries.first { $0.actionIndex == index }
                    #expect(peer.counts.count(path) == delivery?.attempts, "\(path): requests seen = attempts recorded")
                }
                #expect(worker.isRunning, "the worker survived every peer")
                #expect(await worker.stop() == 0)
            }
        }
    }

    /// `serve` (receiver and worker in one process) killed with SIGKILL three times while
    /// webhooks pour in: every webhook it acknowledged is stored, every stored one is
    /// reconciled once a process runs again, and no transition is recorded twice.
    @Test func killNineOfServeUnderLoadLosesNothingAcknowledged() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let sim = stack.simulator
            var ids: [String] = []
            for n in 0..<30 { ids.append(try await sim.createItem("sku-kill-\(n)", result: "authentic", final: true, webhook: false)) }
            let port = try await freePort()
            let env = WorkerProcessTests.workerEnv(sim, ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_JOB_LEASE_SECONDS": "2"])
            let acknowledged = AcknowledgedIDs()
            let probe = HTTPProbe(port: port)
            for round in 0..<3 {
                let serve = try RelayProcess(["serve", "--port", String(port)], database: stack.database, env: env)
                _ = try await eventually(timeout: .seconds(20)) { (try? await probe.status("/readyz")) == 200 }
                await withTaskGroup(of: Void.self) { group in
                    for (n, id) in ids.enumerated() {
                        group.addTask {
                            let eventID = "kill-\(round)-\(n)"
                            let body = #"{"event":"session.completed","id":"\#(eventID)","entrupy_id":"\#(id)"}"#
                            if (try? await probe.post(WebhookFixture.entrupy(body))) == 200 { acknowledged.add(eventID) }
                        }
                    }
                    try? await Task.sleep(for: .milliseconds(150 + 100 * round))
                    serve.kill(SIGKILL)
                }
                _ = await serve.waitForExit()
            }
            // A last, clean run finishes what the killed ones left.
            let serve = try RelayProcess(["serve", "--port", String(port)], database: stack.database, env: env)
            let stored = try await Self.storedEventIDs(stack.database)
            let lost = acknowledged.all.subtracting(stored)
            #expect(lost.isEmpty, "acknowledged but not stored: \(lost.sorted())")
            #expect(!acknowledged.all.isEmpty, "some webhooks were acknowledged before the kills")
            #expect(try await eventually(timeout: .seconds(60)) {
                try await stack.count("SELECT count(*) FROM webhook_events WHERE state <> 'processed'") == 0
            })
            #expect(try await stack.count("""
                SELECT count(*) FROM (SELECT entrupy_id, kind FROM item_events GROUP BY 1, 2 HAVING count(*) > 1) AS repeated
                """) == 0)
            let reconciledItems = try await stack.count("SELECT count(DISTINCT entrupy_id) FROM item_events WHERE kind = 'item.created'")
            let hinted = try await stack.count("SELECT count(DISTINCT entrupy_id) FROM webhook_events")
            #expect(reconciledItems == hinted, "every item a stored webhook named was reconciled")
            #expect(await serve.stop() == 0)
        }
    }
}

extension FaultTests {
    /// PostgreSQL (a cluster of this test's own) stopped with `-m immediate`, like a power cut,
    /// while webhooks arrive, then started again: the receiver answers 503 meanwhile, stays up,
    /// becomes ready again by itself, and every webhook it acknowledged survived the crash.
    @Test func postgresCrashedAndRestartedUnderLoad() async throws {
        let cluster = try await PrivateCluster.start("pg-crash")
        defer { cluster.remove() }
        let url = cluster.url
        let env = CommandLineTests.environment(nil, ["DATABASE_URL": url, "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
                                                     "ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS": "2000"])
        #expect(try await CommandLineTests.run(["migrate"], env: env).status == 0)
        let port = try await freePort()
        let serve = try RelayProcess(binary: nil, ["serve", "--no-worker", "--port", String(port)], env: env)
        let probe = HTTPProbe(port: port)
        #expect(try await eventually(timeout: .seconds(20)) { (try? await probe.status("/readyz")) == 200 })

        let acknowledged = AcknowledgedIDs()
        let refused = AcknowledgedIDs()
        let load = Task {
            for batch in 0..<40 {
                await withTaskGroup(of: Void.self) { group in
                    for n in 0..<5 {
                        group.addTask {
                            let id = "crash-\(batch)-\(n)"
                            let status = try? await probe.post(WebhookFixture.entrupy(#"{"id":"\#(id)","entrupy_id":"E-\#(id)"}"#))
                            if status == 200 { acknowledged.add(id) } else { refused.add(id) }
                        }
                    }
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        try await Task.sleep(for: .seconds(1))
        let crashed = try await cluster.run("crash")
        #expect(crashed.status == 0, "\(crashed.stderr)")
        try await Task.sleep(for: .seconds(2))
        let restarted = try await cluster.run("start")
        #expect(restarted.status == 0, "\(restarted.stderr)")
        await load.value

        #expect(serve.isRunning, "the receiver survived the crash")
        #expect(!refused.all.isEmpty, "the outage was seen: some webhooks were refused (503) while the server was down")
        #expect(try await eventually(timeout: .seconds(30)) { (try? await probe.status("/readyz")) == 200 })
        let stored = try await Self.storedEventIDs(try DatabaseURL(parsing: url))
        let lost = acknowledged.all.subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but lost in the crash: \(lost.sorted())")
        #expect(await serve.stop() == 0)
    }
}

extension FaultTests {
    /// The event IDs of every stored webhook.
    static func storedEventIDs(_ database: DatabaseURL) async throws -> Set<String> {
        try await TestDatabase.withClient(database) { client in
            let rows = try await client.query("SELECT event_id FROM webhook_events", logger: TestDatabase.logger)
            var found = Set<String>()
            for try await id in rows.decode(String?.self) { if let id { found.insert(id) } }
            return found
        }
    }
}

final class AcknowledgedIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids = Set<String>()
    func add(_ id: String) { lock.withLock { _ = ids.insert(id) } }
    var all: Set<String> { lock.withLock { ids } }
}
