public import Foundation

/// A flag support raised from the relay (`flag_requests`): who, when, the reason and comment,
/// and what Entrupy answered.
public struct FlagRequest: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        /// Entrupy is being asked.
        case pending
        /// Entrupy accepted the flag.
        case succeeded
        /// Entrupy (or the relay, before asking) said no: asking again the same way will not help.
        case refused
        /// No usable answer (Entrupy down, rate limited, an unreadable answer): ask again later.
        case failed
    }

    public var id: Int64
    public var entrupyID: String
    public var reason: String
    public var comment: String?
    /// `token NAME`, `console NAME` or `cli (USER)`.
    public var requestedBy: String
    public var requestedAt: Date
    public var state: State
    public var answeredAt: Date?
    /// Entrupy's HTTP status, when it answered.
    public var entrupyStatus: Int?
    /// What Entrupy's answer meant, in the relay's words.
    public var answer: String?

    public init(id: Int64, entrupyID: String, reason: String, comment: String?, requestedBy: String, requestedAt: Date,
                state: State, answeredAt: Date? = nil, entrupyStatus: Int? = nil, answer: String? = nil) {
        self.id = id
        self.entrupyID = entrupyID
        self.reason = reason
        self.comment = comment
        self.requestedBy = requestedBy
        self.requestedAt = requestedAt
        self.state = state
        self.answeredAt = answeredAt
        self.entrupyStatus = entrupyStatus
        self.answer = answer
    }

    /// The timeline's sentence for it.
    public var summary: String {
        var text = "flag requested by \(requestedBy): \(reason)"
        if let comment { text += " (“\(comment.prefix(200))”)" }
        text += "; \(state.rawValue)"
        if let answer { text += ": \(answer)" }
        return text
    }
}
