public import Foundation
public import RelayModel
import RelayNotify

/// A group's one email (`DigestSending`), sent as any email is.
extension EmailDeliverer: DigestSending {
    public func messageID(for messageKey: String) -> String {
        "<\(messageKey)@\(client.configuration.fromDomain)>"
    }

    public func deliver(digest: DeliveryPayload.Email, messageKey: String, date: Date) async -> AttemptReport {
        let message = MIMEMessage(from: client.configuration.from, to: digest.to, subject: digest.subject, text: digest.text,
                                  html: digest.html, date: date, messageID: "\(messageKey)@\(client.configuration.fromDomain)")
        return await send(message)
    }
}
