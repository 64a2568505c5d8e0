import EntrupyAPI
import Foundation
import HTTPTypes
import RelayModel

extension ItemFlagger {
    /// The reason (1 to 64 printable characters, trimmed) and the comment (at most 2,000
    /// characters, trimmed; empty is none), or 400 naming the field. Lengths count Unicode code
    /// points before trimming, as the OpenAPI document's `maxLength` does.
    static func validated(reason raw: String, comment: String?) throws -> (String, String?) {
        let reason = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty, raw.unicodeScalars.count <= maxReasonLength, !reason.unicodeScalars.contains(where: Self.isControl) else {
            throw APIError(.badRequest, "field \"reason\": expected 1 to \(maxReasonLength) printable characters, such as one of the item's flag reasons")
        }
        if let comment, comment.unicodeScalars.count > maxCommentLength {
            throw APIError(.badRequest, "field \"comment\": at most \(maxCommentLength) characters")
        }
        let cleaned = comment.map { StoredText.clean($0).trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        return (reason, cleaned)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// How an Entrupy failure is recorded (state, Entrupy's status, the relay's words) and
    /// answered. Entrupy's own text goes to the log only.
    static func answer(for error: EntrupyAPIError, configuredPath: String) -> (FlagRequest.State, Int?, String, APIError) {
        func failed(_ status: Int?, _ words: String, _ http: HTTPResponse.Status = .badGateway) -> (FlagRequest.State, Int?, String, APIError) {
            (.failed, status, words, APIError(http, words))
        }
        switch error {
        case .rejected(let status, _) where status == 409:
            let words = "Entrupy refused the flag: the item cannot be flagged now (already flagged, or not eligible)"
            return (.refused, status, words, APIError(.conflict, words))
        case .rejected(let status, _):
            let words = "Entrupy refused the flag as invalid (\(status)): check the reason against the item's flag reasons"
            return (.refused, status, words, APIError(.unprocessableContent, words))
        case .rateLimited(let after):
            let seconds = (after ?? .seconds(1)).retryAfterSeconds
            let words = "Entrupy is rate limiting this relay; retry after \(seconds) s"
            return (.failed, 429, words, APIError(.tooManyRequests, words, headers: [.retryAfter: String(seconds)]))
        case .unauthorized(let status): return failed(status, "Entrupy refused this relay's API token")
        case .routeGone(let status, _):
            return failed(status, "Entrupy has no flag route at \(configuredPath) (\(status)); that path is our reading of Entrupy's reference: "
                          + "set ENTRUPY_RELAY_ENTRUPY_API_FLAG_PATH")
        case .server(let status): return failed(status, "Entrupy failed (\(status)); the flag was not raised, retry later")
        case .notFound:
            // The relay has the item, so either Entrupy lost it or the route is not where we read it.
            let words = "Entrupy answered 404: it does not know this item, or its flag route is not \(configuredPath) "
                + "(our reading of Entrupy's reference; ENTRUPY_RELAY_ENTRUPY_API_FLAG_PATH moves it)"
            return (.failed, 404, words, APIError(.notFound, words))
        case .transport: return failed(nil, "Entrupy did not answer; the flag was not raised, retry later")
        case .invalidResponse: return failed(nil, "Entrupy's answer could not be read; check the item's flag before retrying")
        case .budgetUnavailable:
            return failed(nil, "the relay cannot reach its database to pace Entrupy calls; retry later", .serviceUnavailable)
        }
    }
}
