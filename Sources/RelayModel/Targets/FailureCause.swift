/// Whose fault a failed attempt is, which decides whether the target's breaker counts it.
/// Only what says the endpoint (or the mail server) is unwell counts against it; what concerns
/// one message, or the relay's own configuration, fails that delivery alone: it still retries
/// and dies along the delivery's own schedule, but one partner's bad messages never hold the
/// deliveries of anyone else.
public enum FailureCause: String, Sendable, Equatable {
    /// The target's: it could not be reached (connection refused or reset, DNS, TLS, a
    /// timeout) or said it is unwell (5xx, 429, 408) or wrongly addressed (3xx, 401, 403, 404,
    /// 405); for mail, the server's answer to anything but one recipient or one message's content.
    case target
    /// This delivery's alone: the endpoint refused this message (other 4xx, 410 included), the
    /// mail server refused one recipient or this message's content, or the relay cannot send it
    /// (a signing secret no longer in the rules, SMTP not configured, a refused address).
    case delivery

    /// The rule for a callback endpoint's answer that is not 2xx, by status class:
    /// - 5xx, 429 (slow down) and 408 (it timed out): the endpoint is unwell.
    /// - 3xx (not followed), 401 and 403 (it refuses the relay's signature or the relay),
    ///   404 and 405 (no such route, or not for POST): the endpoint is misconfigured, and
    ///   every message to it fails alike. Counted against this endpoint only, since a key is
    ///   the endpoint (path included), one path answering 404 holds no other path; and its
    ///   deliveries are held rather than spent until the partner fixes it.
    /// - Every other 4xx (400, 409, 413, 422, ...) judges the message: the delivery's alone.
    ///   410 also ends the delivery at once (AttemptReport.Result.permanent).
    public static func ofCallbackStatus(_ status: Int) -> FailureCause {
        switch status {
        case 401, 403, 404, 405, 408, 429: .target
        case 400..<500: .delivery
        default: .target
        }
    }
}
