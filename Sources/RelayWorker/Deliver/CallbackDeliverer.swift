import Foundation
public import RelayModel
public import RelayNotify
import RelayRuntime

/// Sends a webhook delivery: the stored body, signed with the secret its fingerprint names,
/// or unsigned when the stored payload says so (a chat preset's target, whose URL is its secret).
/// 2xx delivers; 410 is final; 429 and 503 wait for their Retry-After; 3xx is not followed.
/// Whose fault a failure is (`FailureCause`): the endpoint's when it could not be reached or
/// its status says so (`FailureCause.ofCallbackStatus`), this delivery's for any other 4xx and
/// for what the relay itself cannot do (a secret no longer in the rules, a refused address).
public struct CallbackDeliverer: Sendable {
    let sender: CallbackSender
    let rules: RulesStore

    public init(sender: CallbackSender, rules: RulesStore) {
        self.sender = sender
        self.rules = rules
    }

    public func deliver(_ delivery: DeliveryRecord) async -> AttemptReport {
        guard case .webhook(let payload) = delivery.payload else {
            return AttemptReport(result: .permanent, error: "stored webhook payload is incomplete (\(DeliveryPayload.required(for: .webhook)))")
        }
        // Planned without a body (its template rendered invalid JSON for the item): nothing the operator did not write is sent.
        if let reason = payload.unsendable { return AttemptReport(result: .permanent, error: reason, cause: .delivery) }
        let secret: WebhookSecret?
        if payload.unsigned {
            secret = nil
        } else if let keyID = delivery.signingKeyID, let found = rules.current.signingKeys[keyID] {
            secret = found
        } else {
            // The rules file no longer has this secret: a reload that restores it lets the retries succeed.
            return AttemptReport(result: .transient, error: "signing secret \(delivery.signingKeyID ?? "-") is not in the rules in force",
                                 cause: .delivery)
        }
        // The attempt's trace context, so the partner can continue the trace (W3C Trace Context),
        // unless the rule sets the header itself.
        var headers = payload.headers.map { ($0.name, $0.value) }
        if let traceParent = TraceParent.current(), !headers.contains(where: { $0.0.lowercased() == "traceparent" }) {
            headers.append(("traceparent", traceParent))
        }
        let request = CallbackRequest(url: payload.url, body: Array(payload.body.utf8), messageID: delivery.idempotencyKey, secret: secret,
                                      headers: headers)
        let response: CallbackResponse
        do {
            response = try await sender.send(request)
        } catch {
            return AttemptReport(result: error.isPermanent ? .permanent : .transient, error: error.description, cause: Self.cause(of: error))
        }
        return Self.report(for: response)
    }

    /// An invalid URL or an address callbacks may not reach is the relay's configuration, not
    /// the endpoint's health; DNS, timeouts and transport errors are the endpoint's.
    public static func cause(of error: CallbackError) -> FailureCause {
        switch error {
        case .invalidURL, .refusedAddress: .delivery
        case .unresolvable, .timeout, .transport: .target
        }
    }

    public static func report(for response: CallbackResponse) -> AttemptReport {
        let status = response.status
        var report = AttemptReport(result: .transient, statusCode: status, excerpt: response.excerpt.isEmpty ? nil : response.excerpt,
                                   cause: FailureCause.ofCallbackStatus(status))
        switch status {
        case 200..<300:
            report.result = .delivered
        case 410:
            report.result = .permanent
            report.error = "410 Gone: the target does not want these callbacks any more"
        case 300..<400:
            report.error = "HTTP \(status) redirect not followed (its Location is not kept: it may carry a secret)"
        case 429, 503:
            report.retryAfter = response.retryAfter
            report.error = "HTTP \(status)" + (response.retryAfter.map { ", Retry-After \($0.milliseconds / 1000) s" } ?? "")
        default:
            report.error = "HTTP \(status)"
        }
        return report
    }
}
