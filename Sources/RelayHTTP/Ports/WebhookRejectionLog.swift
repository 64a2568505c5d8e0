public import RelayModel

/// Where the receiver writes down a refused webhook's shape.
public protocol WebhookRejectionLog: Sendable {
    func recordRejection(_ rejection: SignatureRejection) async throws
}
