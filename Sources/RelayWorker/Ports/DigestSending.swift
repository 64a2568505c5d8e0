public import Foundation
public import RelayModel

/// Sends the one email of a group (`DigestComposer`'s), under a Message-ID derived from
/// `messageKey`, so a retry of the same group carries the same one. `EmailDeliverer`.
public protocol DigestSending: Sendable {
    func deliver(digest: DeliveryPayload.Email, messageKey: String, date: Date) async -> AttemptReport
    /// The Message-ID the digest sent under `messageKey` carries.
    func messageID(for messageKey: String) -> String
}
