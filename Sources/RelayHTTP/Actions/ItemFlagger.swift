public import EntrupyAPI
import Foundation
public import Logging
public import RelayModel
import RelayRuntime

/// Raises a flag at Entrupy for support (v2's "Flag an authentication"), once: the request is
/// recorded before Entrupy is asked and finished with its answer; a repeat of a live request
/// (same item, reason and comment, pending or succeeded) answers that request without asking
/// again. The call spends the shared API budget at `interactive` priority, so a burst of flags
/// never takes more than people's share from webhook reconciles and the sync. Every failure is
/// an `APIError` in the relay's words (4xx, 502 or 503), never Entrupy's text.
public struct ItemFlagger: Sendable {
    /// Nil when the Entrupy API is not configured (flags answer 503).
    let api: EntrupyAPIClient?
    let store: any FlagRequestStoring
    /// Fetches the item after Entrupy accepted, so its new flag shows at once.
    let refresher: (any ItemRefreshing)?
    /// `ENTRUPY_RELAY_ENTRUPY_FLAG_REASONS`: offered when the item names none.
    public let configuredReasons: [String]

    public static let maxReasonLength = 64
    public static let maxCommentLength = 2_000

    public init(api: EntrupyAPIClient?, store: any FlagRequestStoring, refresher: (any ItemRefreshing)?, configuredReasons: [String]) {
        self.api = api
        self.store = store
        self.refresher = refresher
        self.configuredReasons = configuredReasons
    }

    /// What happened: the request as recorded, and whether it repeated an earlier one.
    public struct Outcome: Sendable {
        public var request: FlagRequest
        public var repeated: Bool
    }

    public func eligibility(_ detail: ItemDetail) -> FlagEligibility {
        FlagEligibility(detail, configuredReasons: configuredReasons)
    }

    /// Flags `detail`'s item for `reason` (checked against the reasons offered) with `comment`.
    /// `named`: the ID the caller gave; a customer item ID that several authentications share
    /// is refused (a flag can cost money: the one meant must be named by its Entrupy ID).
    public func flag(_ detail: ItemDetail, named given: String? = nil, reason: String, comment: String?, by requestedBy: String,
                     logger: Logger) async throws -> Outcome {
        if let given, given != detail.entrupyID, !detail.resubmissions.isEmpty {
            throw APIError(.conflict, "customer item ID \"\(given.prefix(256))\" names \(detail.resubmissions.count + 1) authentications; "
                           + "flag one by its Entrupy ID (the newest is \(detail.entrupyID))")
        }
        let (reason, comment) = try Self.validated(reason: reason, comment: comment)
        let eligibility = eligibility(detail)
        if let problem = eligibility.problem(reason: reason) { throw APIError(.unprocessableContent, problem) }
        let opened: (request: FlagRequest, isNew: Bool)
        do {
            opened = try await store.open(entrupyID: detail.entrupyID, reason: reason, comment: comment, requestedBy: requestedBy)
        } catch {
            logger.warning("flag: not recorded", metadata: ["error": "\(StoreFailure.describe(error))"])
            throw APIError(.serviceUnavailable, "the flag could not be recorded; retry later", headers: [.retryAfter: "5"])
        }
        guard opened.isNew else { return Outcome(request: opened.request, repeated: true) }
        let request = opened.request
        if let refusal = eligibility.refusal {
            _ = try? await store.finish(id: request.id, state: .refused, entrupyStatus: nil, answer: refusal)
            throw APIError(.conflict, "item \(detail.entrupyID) cannot be flagged: \(refusal)")
        }
        guard let api else {
            let text = "the Entrupy API is not configured on this relay (ENTRUPY_RELAY_ENTRUPY_API_TOKEN)"
            _ = try? await store.finish(id: request.id, state: .failed, entrupyStatus: nil, answer: text)
            throw APIError(.serviceUnavailable, text)
        }
        return try await ask(api, request: request, logger: logger)
    }

    /// Asks Entrupy and records its answer.
    func ask(_ api: EntrupyAPIClient, request: FlagRequest, logger: Logger) async throws -> Outcome {
        do {
            let answer = try await api.flag(entrupyID: request.entrupyID, reason: request.reason, comments: request.comment)
            let finished = try? await store.finish(id: request.id, state: .succeeded, entrupyStatus: answer.status,
                                                   answer: "Entrupy accepted the flag (\(answer.status))")
            logger.info("flag raised at Entrupy", metadata: ["entrupy_id": "\(request.entrupyID)", "by": "\(request.requestedBy)"])
            if let refresher {
                do { _ = try await refresher.refreshNow(entrupyID: request.entrupyID) } catch {
                    logger.notice("flag: the item's fetch was not queued", metadata: ["error": "\(StoreFailure.describe(error))"])
                }
            }
            return Outcome(request: finished ?? request, repeated: false)
        } catch let error as EntrupyAPIError {
            logger.warning("flag: Entrupy refused or failed", metadata: ["entrupy_id": "\(request.entrupyID)", "error": "\(error)"])
            let (state, status, words, answer) = Self.answer(for: error, configuredPath: api.flagRoute)
            _ = try? await store.finish(id: request.id, state: state, entrupyStatus: status, answer: words)
            throw answer
        } catch {
            // Cut short (the client went, the relay is stopping) or anything else: the request is
            // failed, not left pending for its repeats to stand on.
            logger.warning("flag: no answer", metadata: ["entrupy_id": "\(request.entrupyID)", "error": "\(error)"])
            _ = try? await store.finish(id: request.id, state: .failed, entrupyStatus: nil, answer: "no answer was recorded: \(error)")
            throw APIError(.serviceUnavailable, "Entrupy could not be asked; retry later", headers: [.retryAfter: "5"])
        }
    }
}
