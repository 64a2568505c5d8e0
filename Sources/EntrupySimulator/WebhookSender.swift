import AsyncHTTPClient
import Logging
import NIOCore
import ServiceLifecycle

/// Sends events like a provider: signed with `Entrupy-Signature` (lowercase hex HMAC-SHA256 of
/// the raw body), several at once, each retried with backoff until it gets a 2xx (or 8
/// attempts, about 13 s, are spent).
final class WebhookSender: Service, Sendable {
    struct Delivery: Sendable {
        let body: [UInt8]
        let signature: String
    }

    /// Delays between attempts: 100, 200, 400 … ms, eight attempts in all.
    static let retrySchedule = [100, 200, 400, 800, 1600, 3200, 6400]

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

    /// Sends a `type` event about `item` as it is now, with `extra` beside it under `data`.
    /// Returns the event's id, or nil when no webhook URL is configured (nothing is sent).
    @discardableResult
    func send(_ type: String, item: SimItem, extra: [String: SimJSON] = [:]) -> String? {
        guard url != nil else { return nil }
        let event = WebhookEvent(id: SimIdentifier.make("evt"), type: type, item: item, extra: extra)
        let delivery = Delivery(body: event.body, signature: SimSignature.hex(of: event.body, key: secret))
        for _ in 0...max(0, store.behaviour.duplicateWebhooks) { input.yield(delivery) }
        return event.id
    }

    func run() async throws {
        guard let url else {
            try? await gracefulShutdown()
            return
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
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
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "entrupy-sim")
        request.headers.add(name: "Entrupy-Signature", value: delivery.signature)
        request.body = .bytes(ByteBuffer(bytes: delivery.body))
        let attempts = Self.retrySchedule.count + 1
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
            try? await Task.sleep(for: .milliseconds(Self.retrySchedule[attempt - 1]))
        }
        store.count { $0.webhooksFailed += 1 }
    }
}
