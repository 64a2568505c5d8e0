import AsyncHTTPClient
import Logging
import NIOCore
import ServiceLifecycle

/// Sends events like a provider: signed with `Entrupy-Signature` (lowercase hex HMAC-SHA256 of
/// the raw body), several at once, each retried on the configured schedule until it gets a 2xx.
/// The world's faults (drop, duplicate, reorder) are drawn per event by `WebhookPlan`.
final class WebhookSender: Service, Sendable {
    struct Delivery: Sendable {
        let body: [UInt8]
        let signature: String
        let holdMilliseconds: Int
        let retrySchedule: [Int]
    }

    let url: String?
    let secret: String
    let store: SimulatorStore
    let logger: Logger
    private let stream: AsyncStream<Delivery>
    private let input: AsyncStream<Delivery>.Continuation

    init(url: String?, secret: String, store: SimulatorStore, logger: Logger) {
        self.url = url
        self.secret = secret
        self.store = store
        self.logger = logger
        (stream, input) = AsyncStream<Delivery>.makeStream()
    }

    /// Sends a `type` event about `item` as it is now, with `extra` beside it under `data`, the
    /// item in the shape the `api_version` in force gives webhooks (v2 once v1 is retired).
    /// Returns the event's id, or nil when no webhook URL is configured (nothing is sent).
    @discardableResult
    func send(_ type: String, item: SimItem, extra: [String: SimJSON] = [:]) -> String? {
        let v2 = store.behaviour.apiVersion.webhooksInV2
        return send { id in WebhookEvent(id: id, type: type, item: item, extra: extra, v2: v2) }
    }

    /// Sends the event `make` renders for the plan's event id (drops, copies and retries as drawn).
    @discardableResult
    func send(_ make: (String) -> WebhookEvent) -> String? {
        guard url != nil else { return nil }
        let plan = store.draw { random, behaviour in WebhookPlan.draw(using: &random, behaviour: behaviour) }
        guard !plan.dropped else {
            store.count { $0.webhooksDropped += 1 }
            logger.debug("webhook dropped", metadata: ["event": "\(plan.eventID)"])
            return plan.eventID
        }
        if plan.holds.count > 1 { store.count { $0.webhooksDuplicated += plan.holds.count - 1 } }
        let event = make(plan.eventID)
        let signature = SimSignature.hex(of: event.body, key: secret)
        for hold in plan.holds {
            input.yield(Delivery(body: event.body, signature: signature, holdMilliseconds: hold, retrySchedule: plan.retrySchedule))
        }
        return event.id
    }

    func run() async throws {
        guard let url else {
            try? await gracefulShutdown()
            return
        }
        // A provider sends from many connections at once; the client's default of 8 per host
        // made the simulator, not the relay, the limit at 200 webhooks/s.
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                // Each delivery waits and retries on its own; the HTTP client's pool bounds the connections.
                for await delivery in self.stream {
                    group.addTask { await self.deliver(delivery, to: url, using: http) }
                }
            }
        }
        try? await http.shutdown()
    }

    private func deliver(_ delivery: Delivery, to url: String, using http: HTTPClient) async {
        if delivery.holdMilliseconds > 0 {
            guard (try? await Task.sleep(for: .milliseconds(delivery.holdMilliseconds))) != nil else {
                store.count { $0.webhooksFailed += 1 }
                return
            }
        }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "entrupy-sim")
        request.headers.add(name: "Entrupy-Signature", value: delivery.signature)
        request.body = .bytes(ByteBuffer(bytes: delivery.body))
        let attempts = delivery.retrySchedule.count + 1
        for attempt in 1...attempts {
            store.count { $0.webhookAttempts += 1 }
            do {
                let response = try await http.execute(request, timeout: .seconds(10))
                _ = try? await response.body.collect(upTo: 1 << 16)
                if (200..<300).contains(response.status.code) {
                    store.count { $0.webhooksSent += 1 }
                    return
                }
                logger.debug("webhook refused", metadata: ["status": "\(response.status.code)", "attempt": "\(attempt)"])
            } catch {
                logger.debug("webhook failed", metadata: ["error": "\(error)", "attempt": "\(attempt)"])
            }
            guard attempt < attempts, !Task.isCancelled else { break }
            try? await Task.sleep(for: .milliseconds(delivery.retrySchedule[attempt - 1]))
        }
        store.count { $0.webhooksFailed += 1 }
    }
}
