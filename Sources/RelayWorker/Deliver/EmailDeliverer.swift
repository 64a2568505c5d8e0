public import RelayModel
public import RelayNotify

/// Sends an email delivery through the SMTP client; the Message-ID is derived from the
/// delivery's idempotency key, so every retry of one delivery carries the same one.
public struct EmailDeliverer: Sendable {
    let client: SMTPClient

    public init(client: SMTPClient) {
        self.client = client
    }

    public func message(for delivery: DeliveryRecord) -> MIMEMessage? {
        guard case .email(let email) = delivery.payload else { return nil }
        return MIMEMessage(from: client.configuration.from, to: email.to, subject: email.subject, text: email.text,
                           html: email.html, date: delivery.createdAt,
                           messageID: "\(delivery.idempotencyKey)@\(client.configuration.fromDomain)")
    }

    /// Whose fault an SMTP failure is. A recipient's answer (RCPT: a full mailbox, an unknown
    /// user) fails that email alone, and so does the message's content refused for good at the
    /// end of DATA (5xx: too large, taken for spam). Everything else is the server's: connecting,
    /// TLS, the greeting, EHLO, AUTH, MAIL FROM, DATA, a 4xx at the end of DATA, a timeout,
    /// and 421 (the server closing) whatever it answers.
    public static func cause(of error: SMTPError) -> FailureCause {
        guard case .rejected(let command, let reply) = error, reply.code != 421 else { return .target }
        if command.uppercased().hasPrefix("RCPT") { return .delivery }
        if command == SMTPClient.endOfData, reply.isPermanent { return .delivery }
        return .target
    }

    public func deliver(_ delivery: DeliveryRecord) async -> AttemptReport {
        guard let message = message(for: delivery) else {
            return AttemptReport(result: .permanent, error: "stored email payload is incomplete (\(DeliveryPayload.required(for: .email)))")
        }
        return await send(message)
    }

    /// One message through the SMTP client, its outcome as an attempt's report.
    func send(_ message: MIMEMessage) async -> AttemptReport {
        do {
            let reply = try await client.send(message)
            return AttemptReport(result: .delivered, smtpReply: reply.description)
        } catch let error as SMTPError {
            return AttemptReport(result: error.isPermanent ? .permanent : .transient, smtpReply: error.reply?.description,
                                 error: error.description, cause: Self.cause(of: error))
        } catch {
            return AttemptReport(result: .transient, error: "\(error)")
        }
    }
}
