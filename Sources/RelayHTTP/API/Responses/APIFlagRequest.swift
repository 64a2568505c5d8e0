import Foundation
public import RelayModel

/// `POST /v1/items/{id}/flag`: the flag as recorded. `repeated` is true when the request
/// repeated a live one (same item, reason and comment): Entrupy was not asked again.
public struct APIFlagRequest: Encodable, Sendable {
    let id: Int64
    let entrupyID: String
    let reason: String
    @AlwaysPresent var comment: String?
    let requestedBy: String
    let requestedAt: Date
    let state: String
    @AlwaysPresent var answeredAt: Date?
    @AlwaysPresent var entrupyStatus: Int?
    @AlwaysPresent var answer: String?
    let repeated: Bool

    enum CodingKeys: String, CodingKey {
        case id, entrupyID = "entrupy_id", reason, comment, requestedBy = "requested_by", requestedAt = "requested_at", state
        case answeredAt = "answered_at", entrupyStatus = "entrupy_status", answer, repeated
    }

    public init(_ request: FlagRequest, repeated: Bool) {
        id = request.id
        entrupyID = request.entrupyID
        reason = request.reason
        comment = request.comment
        requestedBy = request.requestedBy
        requestedAt = request.requestedAt
        state = request.state.rawValue
        answeredAt = request.answeredAt
        entrupyStatus = request.entrupyStatus
        answer = request.answer
        self.repeated = repeated
    }
}
