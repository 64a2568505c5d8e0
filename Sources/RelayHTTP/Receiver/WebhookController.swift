import Foundation
public import Hummingbird
import HTTPTypes
import Logging
import Tracing
import NIOCore
public import RelayModel
import RelayRuntime

/// `POST /webhooks/entrupy`: verify, store durably with its follow-up job, then answer.
/// Nothing unverified is stored; nothing verified is dropped; 2xx only after the commit.
public struct WebhookController: Sendable {
    /// A request without one of these cannot be a signed webhook: it is refused before its body is read.
    static let signatureHeaders: [HTTPField.Name] = [
        HTTPField.Name("Entrupy-Signature")!, HTTPField.Name("X-Entrupy-Signature")!, HTTPField.Name("webhook-signature")!,
    ]
    /// Headers kept with each stored event: enough to audit the delivery, never our secrets.
    static let keptHeaders: [HTTPField.Name] = [.contentType, .userAgent, .contentLength] + signatureHeaders + [
        HTTPField.Name("webhook-id")!, HTTPField.Name("webhook-timestamp")!,
        HTTPField.Name("X-Forwarded-For")!, HTTPField.Name("X-Forwarded-Proto")!, HTTPField.Name("X-Real-IP")!,
    ]
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    let verifier: WebhookVerifier
    let ingestor: GroupCommitIngestor
    let addressResolver: ClientAddressResolver
    let maxBodyBytes: Int
    /// Bodies being read at once, at most `bodySlots.limit` (each up to `maxBodyBytes`), and of
    /// those at most `bodiesPerClient` for one client: a few addresses dripping bodies cannot
    /// take the slots the real sender needs.
    let bodySlots: SlotCounter<Int>
    let clientSlots: SlotCounter<String>
    let retryAfterSeconds: Int
    let metrics = WebhookOutcome.Counters()
    let rejections: RejectionRecorder

    public init(verifier: WebhookVerifier, ingestor: GroupCommitIngestor, addressResolver: ClientAddressResolver,
                maxBodyBytes: Int, maxConcurrentBodies: Int = 256, bodiesPerClient: Int = 64,
                retryAfterSeconds: Int = 5, rejections: RejectionRecorder = RejectionRecorder(log: nil)) {
        self.rejections = rejections
        self.verifier = verifier
        self.ingestor = ingestor
        self.addressResolver = addressResolver
        self.maxBodyBytes = maxBodyBytes
        self.bodySlots = SlotCounter(limit: maxConcurrentBodies)
        self.clientSlots = SlotCounter(limit: min(bodiesPerClient, maxConcurrentBodies))
        self.retryAfterSeconds = retryAfterSeconds
    }

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.post("/webhooks/entrupy", use: receive)
    }

    @Sendable func receive(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let client = addressResolver.clientAddress(peer: context.peerAddress, forwardedFor: request.headers[values: Self.forwardedFor])
        var logger = context.logger
        logger[metadataKey: "client"] = .string(client ?? "unknown")
        let receipt = Receipt(start: .now, client: client, requestID: context.requestID, logger: logger)

        try await refuseBeforeReading(request, receipt)
        let body = try await readBody(request, receipt)
        let headers = Self.keptHeaderValues(request.headers)
        let scheme = try await verify(body, headers: headers, receipt)
        let parsed = WebhookPayloadParser.parse(body: body, headers: headers, verifiedBy: scheme)
        let result = try await store(body, parsed: parsed, verifiedBy: scheme, headers: headers, receipt)
        logStored(result, parsed: parsed, receipt)
        return APIWebhookAccepted(result).response
    }

    /// One request on its way through `receive`: when it arrived, from whom, and its log.
    struct Receipt {
        let start: ContinuousClock.Instant
        let client: String?
        let requestID: String
        let logger: Logger
    }

    /// Refuses an announced oversize body, and an unsigned request, before a byte of the body
    /// is read and before the request may hold a body slot.
    func refuseBeforeReading(_ request: Request, _ receipt: Receipt) async throws {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBodyBytes {
            metrics.record(.tooLarge, since: receipt.start)
            receipt.logger.warning("webhook refused: body too large", metadata: ["declared_bytes": "\(declared)"])
            throw APIError(.contentTooLarge, "request body exceeds \(maxBodyBytes) bytes")
        }
        guard Self.signatureHeaders.contains(where: { request.headers[$0] != nil }) else {
            metrics.record(.unauthorized, since: receipt.start)
            receipt.logger.warning("webhook refused: no signature header")
            await rejections.record(SignatureShape.of(headers: Self.keptHeaderValues(request.headers), outcome: .missingSignature),
                                    bodyBytes: nil, client: receipt.client, requestID: receipt.requestID, logger: receipt.logger)
            throw APIError(.unauthorized, Self.message(for: .missingSignature), headers: Self.closing())
        }
    }

    /// Reads the whole body while holding a body slot and one of its client's, or refuses it
    /// (busy, too large, too slow).
    func readBody(_ request: Request, _ receipt: Receipt) async throws -> [UInt8] {
        let slotKey = try takeBodySlots(receipt)
        let buffer: ByteBuffer
        do {
            defer {
                bodySlots.give(0)
                clientSlots.give(slotKey)
            }
            let body = request.body, limit = maxBodyBytes
            // The whole body must arrive within ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS: the connection's
            // RequestBodyDeadlineHandler ends a body that has not, and collect throws.
            buffer = try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            metrics.record(.tooLarge, since: receipt.start)
            receipt.logger.warning("webhook refused: streamed body too large")
            throw APIError(.contentTooLarge, "request body exceeds \(maxBodyBytes) bytes", headers: Self.closing())
        } catch let timeout as RequestBodyTimeout {
            metrics.record(.bodyTimeout, since: receipt.start)
            receipt.logger.warning("webhook refused: body not received in time", metadata: ["limit": "\(timeout.limit)"])
            throw timeout.apiError
        }
        let body = Array(buffer.readableBytesView)
        metrics.bodyBytes.record(body.count)
        return body
    }

    /// Takes one of the client's body slots and one of all, or refuses the request as busy.
    /// Returns the client's slot key, to give both back once the body is read.
    func takeBodySlots(_ receipt: Receipt) throws -> String {
        let slotKey = Self.slotKey(receipt.client)
        guard clientSlots.take(slotKey) else {
            metrics.record(.busy, since: receipt.start)
            receipt.logger.warning("webhook refused: this client has too many bodies being read at once", metadata: ["limit": "\(clientSlots.limit)"])
            throw APIError(.serviceUnavailable, "too many webhooks at once from this address; retry later",
                           headers: Self.closing(retryAfter: retryAfterSeconds))
        }
        guard bodySlots.take(0) else {
            clientSlots.give(slotKey)
            metrics.record(.busy, since: receipt.start)
            receipt.logger.warning("webhook refused: too many bodies being read at once", metadata: ["limit": "\(bodySlots.limit)"])
            throw APIError(.serviceUnavailable, "too many webhooks at once; retry later", headers: Self.closing(retryAfter: retryAfterSeconds))
        }
        return slotKey
    }

    /// The scheme whose signature the body carries, or a refusal, logged and recorded by its shape.
    func verify(_ body: [UInt8], headers: [String: String], _ receipt: Receipt) async throws -> SignatureScheme {
        let verification = verifier.verify(body: body, headers: headers)
        guard case .verified(let scheme) = verification else {
            metrics.record(.unauthorized, since: receipt.start)
            let shape = SignatureShape.of(headers: headers, outcome: verification)
            receipt.logger.warning("webhook refused: signature", metadata: [
                "reason": "\(verification.label)", "detail": "\(verification)", "headers": "\(shape.headers.joined(separator: ","))",
                "encoding": "\(shape.encoding)", "length": "\(shape.length)",
            ])
            await rejections.record(shape, bodyBytes: body.count, client: receipt.client, requestID: receipt.requestID, logger: receipt.logger)
            throw APIError(.unauthorized, Self.message(for: verification))
        }
        return scheme
    }

    /// Stores the verified event with its follow-up job, or asks the sender to retry (503).
    func store(_ body: [UInt8], parsed: ParsedWebhook, verifiedBy scheme: SignatureScheme, headers: [String: String],
               _ receipt: Receipt) async throws -> IngestResult {
        do {
            // The store is a span of the receipt's trace, and the context its reconcile job carries.
            return try await withSpan("webhook.store", ofKind: .internal) { span in
                span.attributes["webhook.event_type"] = parsed.identifiers.eventType
                let event = NewWebhookEvent(body: body, parsed: parsed, verifiedBy: scheme, headers: headers,
                                            clientAddress: receipt.client, requestID: receipt.requestID, traceParent: TraceParent.current())
                // The ingestor bounds the wait (ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS) and answers 503-worthy errors.
                let result = try await ingestor.ingest(event)
                span.attributes["webhook.stored_id"] = Int(result.id)
                span.attributes["webhook.duplicate"] = result.duplicate
                return result
            }
        } catch {
            metrics.record(.unavailable, since: receipt.start)
            receipt.logger.error("webhook not stored; asking the sender to retry", metadata: ["error": "\(StoreFailure.describe(error))"])
            var retry = HTTPFields()
            retry[.retryAfter] = String(retryAfterSeconds)
            throw APIError(.serviceUnavailable, "the event could not be stored; retry later", headers: retry)
        }
    }

    /// Counts and logs a stored event (a duplicate, or an id reused with another body, too).
    func logStored(_ result: IngestResult, parsed: ParsedWebhook, _ receipt: Receipt) {
        metrics.record(result.duplicate ? .duplicate : .accepted, since: receipt.start)
        if result.reusedEventID {
            metrics.reusedEventIDs.increment()
            receipt.logger.warning("webhook's id was an earlier event's, with another body: stored as its own event", metadata: [
                "stored_id": "\(result.id)", "event_id": "\(parsed.identifiers.eventID ?? "-")",
            ])
        }
        receipt.logger.info("webhook stored", metadata: [
            "stored_id": "\(result.id)", "duplicate": "\(result.duplicate)", "state": "\(parsed.state.rawValue)",
            "event_type": "\(parsed.identifiers.eventType ?? "-")",
        ])
    }

    /// Whose share of the body slots a request takes: its address, or for IPv6 its /64 (one
    /// host commonly holds a whole /64, so single addresses would be free to take).
    static func slotKey(_ client: String?) -> String {
        ClientBucket(client).client
    }

    /// `Connection: close` (and a Retry-After): the rest of an unread body is not waited for.
    static func closing(retryAfter: Int? = nil) -> HTTPFields {
        var fields = HTTPFields()
        fields[.connection] = "close"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        return fields
    }

    /// The values of `keptHeaders` only (every other header is dropped), keyed by lowercase name.
    static func keptHeaderValues(_ fields: HTTPFields) -> [String: String] {
        var out: [String: String] = [:]
        for name in keptHeaders {
            let values = fields[values: name]
            if !values.isEmpty { out[name.canonicalName] = values.joined(separator: ", ") }
        }
        return out
    }

    /// What the sender is told. Why a signature failed (which secrets are configured, which
    /// scheme matched none) goes to the log only: the body must not describe the set-up.
    static func message(for outcome: VerificationOutcome) -> String {
        switch outcome {
        case .missingSignature: "missing signature: send Entrupy-Signature (or webhook-signature)"
        case .staleTimestamp: "webhook-timestamp is outside the allowed tolerance"
        case .invalidSignature: "invalid signature"
        case .verified: "verified"
        }
    }
}
