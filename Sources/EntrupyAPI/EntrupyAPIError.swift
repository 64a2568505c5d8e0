/// How a call to the Entrupy API failed, sorted by what the caller should do about it.
public enum EntrupyAPIError: Error, Equatable, CustomStringConvertible {
    /// 404: the item does not exist (yet).
    case notFound
    /// 429: wait `retryAfter` (when the server said) and try again.
    case rateLimited(retryAfter: Duration?)
    /// 401/403: the token is wrong; retrying will not help until configuration changes.
    case unauthorized(status: Int)
    /// 410, or a 404 from a route that always exists (health): the route is not there, as when
    /// Entrupy retires an API version. Retrying will not help until configuration changes.
    case routeGone(status: Int, path: String)
    /// 400 and other 4xx: the request itself is wrong.
    case rejected(status: Int, message: String)
    /// 5xx: Entrupy's trouble; retry with backoff.
    case server(status: Int)
    /// No answer: connection refused, reset, timed out.
    case transport(String)
    /// An answer we could not read.
    case invalidResponse(String)
    /// The shared API budget (in the database) could not be read, so nothing was sent.
    case budgetUnavailable(String)

    public var description: String {
        switch self {
        case .notFound: "Entrupy API: not found (404)"
        case .rateLimited(let after): "Entrupy API: rate limited (429)" + (after.map { ", retry after \($0)" } ?? "")
        case .unauthorized(let status): "Entrupy API: the token was refused (\(status)); check ENTRUPY_RELAY_ENTRUPY_API_TOKEN"
        case .routeGone(let status, let path):
            "Entrupy API: \(path) is not there (\(status)); the API version may be retired or moved: check ENTRUPY_RELAY_ENTRUPY_API_VERSION "
                + "and the path settings, and run `entrupy-relay entrupy check`"
        case .rejected(let status, let message): "Entrupy API: request rejected (\(status)): \(message)"
        case .server(let status): "Entrupy API: server error (\(status))"
        case .transport(let message): "Entrupy API: no answer (\(message))"
        case .invalidResponse(let message): "Entrupy API: unreadable answer (\(message))"
        case .budgetUnavailable(let message): "Entrupy API: not called, the shared rate budget is unavailable (\(message))"
        }
    }
}
