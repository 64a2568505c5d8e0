public import Foundation

/// One refused webhook as recorded: its shape (`SignatureShape`), when, from where and how big.
public struct SignatureRejection: Sendable, Equatable {
    public var id: Int64
    public var receivedAt: Date
    public var shape: SignatureShape
    /// The body's length when it was read (nil: refused before, for want of any signature header).
    public var bodyBytes: Int?
    public var clientAddress: String?
    public var requestID: String?

    public init(id: Int64 = 0, receivedAt: Date = Date(), shape: SignatureShape, bodyBytes: Int?, clientAddress: String?, requestID: String?) {
        self.id = id
        self.receivedAt = receivedAt
        self.shape = shape
        self.bodyBytes = bodyBytes
        self.clientAddress = clientAddress
        self.requestID = requestID
    }
}
