import Foundation
public import RelayModel

/// One refused webhook in `GET /v1/events/rejections` and `events rejections --json`: its
/// shape, never its signature value or body.
public struct APIRejection: Encodable, Sendable {
    let id: Int64
    let receivedAt: Date
    let reason: String
    let headers: [String]
    let encoding: String
    let valueLength: Int
    let bodyBytes: Int?
    let clientAddress: String?
    let requestID: String?

    enum CodingKeys: String, CodingKey {
        case id, receivedAt = "received_at", reason, headers, encoding, valueLength = "value_length", bodyBytes = "body_bytes",
             clientAddress = "client_address", requestID = "request_id"
    }

    public init(_ rejection: SignatureRejection) {
        id = rejection.id
        receivedAt = rejection.receivedAt
        reason = rejection.shape.reason
        headers = rejection.shape.headers
        encoding = rejection.shape.encoding
        valueLength = rejection.shape.length
        bodyBytes = rejection.bodyBytes
        clientAddress = rejection.clientAddress
        requestID = rejection.requestID
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(receivedAt, forKey: .receivedAt)
        try container.encode(reason, forKey: .reason)
        try container.encode(headers, forKey: .headers)
        try container.encode(encoding, forKey: .encoding)
        try container.encode(valueLength, forKey: .valueLength)
        try container.encode(bodyBytes, forKey: .bodyBytes)
        try container.encode(clientAddress, forKey: .clientAddress)
        try container.encode(requestID, forKey: .requestID)
    }
}

/// `{"rejections": [...]}`.
public struct APIRejections: Encodable, Sendable {
    let rejections: [APIRejection]
}
