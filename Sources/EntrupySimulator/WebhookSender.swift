import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import RelayCore
import ServiceLifecycle

/// Sends change webhooks like a provider: signed with `Entrupy-Signature`, several at once,
/// each retried with backoff until it gets a 2xx (or 8 attempts, about 25 s, are spent).
final class WebhookSender: Service, Sendable {
    struct Delivery: Sendable {
        let body: [UInt8]
    }

    let url: String?
    let secret: WebhookSecret
    let store: SimulatorStore
    let logger: Logger
    private let stream: AsyncStream<Delivery>
    private let input: AsyncStream<Delivery>.Continuation

    init(url: String?, secret: String, store: SimulatorStore, logger: Logger) {
        self.url = url
        self.secret = .entrupy(secret)
        self.store = store
        self.logger = logger
        (stream, input) = AsyncStream<Delivery>.makeStream()
    }

    /// Queues the hint for an item change (plus any configured duplicates).
    func send(event: String, item: SimItem) {
        guard url != nil else { return }
        let payload: JSONValue = .object([
            "event": .string(event),
            "id": .string("evt_" + UUID().uuidString.lowercased()),
            "entrupy_id": .string(item.entrupyID),
            "customer_item_id": .string(item.customerItemID),
            "created": .number(JSONNumber(Date().timeIntervalSince1970.rounded())),
        ])
        let delivery = Delivery(body: Array(payload.jsonText.utf8))
        for _ in 0...max(0, store.behaviour.duplicateWebhooks) { input.yield(delivery) }
    }

    func run() async throws {
        guard let url else {
            try? await gracefulShutdown()
            return
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                // Each delivery retries on its own; the HTTP client's pool bounds the connections.
                for await delivery in self.stream {
                    group.addTask { await self.deliver(delivery, to: url, using: http) }
                }
            }
        }
        try? await http.shutdown()
    }

    private func deliver(_ delivery: Delivery, to url: String, using http: HTTPClient) async {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "entrupy-sim")
        request.headers.add(name: "Entrupy-Signature", value: EntrupySignatureVerifier.sign(body: delivery.body, secret: secret))
        request.body = .bytes(ByteBuffer(bytes: delivery.body))
        for attempt in 1...8 {
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
            if Task.isCancelled { break }
            try? await Task.sleep(for: .milliseconds(100 * (1 << (attempt - 1))))
        }
        store.count { $0.webhooksFailed += 1 }
    }
}
