import Foundation
public import RelayModel
public import RelayNotify

/// Sends a test delivery (`targets test`) as the deliverers send a real one: a callback through
/// the same `CallbackSender` (its address policy, timeout and redirect refusal) with Standard
/// Webhooks headers, an email through the configured SMTP server. Records nothing: the answer
/// is returned for the operator to read.
public struct TargetTestSender: Sendable {
    let callbacks: CallbackSender
    let smtp: SMTPClient?

    public init(callbacks: CallbackSender, smtp: SMTPClient?) {
        self.callbacks = callbacks
        self.smtp = smtp
    }

    /// A `webhook-id` that says it is a test and is never an idempotency key of a delivery.
    public static func messageID() -> String {
        "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// - Parameter secret: the rule's signing secret (the fingerprint in `planned` names it); nil
    ///   only for a payload marked unsigned.
    public func send(_ planned: PlannedDelivery, secret: WebhookSecret?, transition: String,
                     messageID: String = TargetTestSender.messageID()) async -> TargetTestAnswer {
        let started = ContinuousClock.now
        var answer = TargetTestAnswer(rule: planned.rule, action: planned.actionIndex, channel: planned.channel, target: planned.target,
                                      transition: transition, messageID: messageID, succeeded: false, milliseconds: 0)
        switch planned.payload {
        case .webhook(let webhook):
            await post(webhook, secret: secret, into: &answer)
        case .email(let email):
            await mail(email, into: &answer)
        }
        let elapsed = ContinuousClock.now - started
        answer.milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        return answer
    }

    func post(_ webhook: DeliveryPayload.Webhook, secret: WebhookSecret?, into answer: inout TargetTestAnswer) async {
        // As the deliverer: unsigned only when the payload says so (a chat target), never for a lost secret.
        if !webhook.unsigned, secret == nil {
            answer.error = "the signing secret of \(answer.target) is not in the rules in force"
            return
        }
        let request = CallbackRequest(url: webhook.url, body: Array(webhook.body.utf8), messageID: answer.messageID, secret: webhook.unsigned ? nil : secret,
                                      headers: webhook.headers.map { ($0.name, $0.value) })
        do {
            let response = try await callbacks.send(request, keeping: TargetTestAnswer.shownHeaders)
            answer.statusCode = response.status
            answer.excerpt = response.excerpt.isEmpty ? nil : response.excerpt
            answer.headers = response.headers
            answer.succeeded = response.isSuccess
            if !response.isSuccess { answer.error = CallbackDeliverer.report(for: response).error ?? "HTTP \(response.status)" }
        } catch {
            answer.error = error.description
        }
    }

    func mail(_ email: DeliveryPayload.Email, into answer: inout TargetTestAnswer) async {
        guard let smtp else {
            answer.error = "no SMTP server is configured (ENTRUPY_RELAY_SMTP_URL and ENTRUPY_RELAY_SMTP_FROM)"
            return
        }
        let message = MIMEMessage(from: smtp.configuration.from, to: email.to, subject: email.subject, text: email.text, html: email.html,
                                  date: Date(), messageID: "\(answer.messageID)@\(smtp.configuration.fromDomain)")
        do {
            let reply = try await smtp.send(message)
            answer.smtpReply = reply.description
            answer.succeeded = true
        } catch let error as SMTPError {
            answer.smtpReply = error.reply?.description
            answer.error = error.description
        } catch {
            answer.error = "\(error)"
        }
    }
}
