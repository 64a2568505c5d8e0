import Foundation

/// What the last `GET …/health` said: whether Entrupy answers and accepts the token.
public enum EntrupyHealth: Sendable, Equatable {
    /// Not checked yet.
    case unknown
    case up
    /// 401/403: the token is wrong or revoked; nothing will work until it is replaced.
    case tokenRefused(status: Int)
    /// The health route is not there (404 or 410): the API version configured is not served.
    case routeGone(String)
    /// No answer, an error status, or an answer that is not `{"status": "ok"}`.
    case down(String)

    public var isUp: Bool { self == .up }

    /// Why the version's routes are not there, when that is what the last check found.
    public var routeGoneReason: String? {
        if case .routeGone(let reason) = self { return reason }
        return nil
    }

    /// The word `/readyz` shows under `entrupy`.
    public var summary: String {
        switch self {
        case .unknown: "unknown: not checked yet"
        case .up: "ok"
        case .tokenRefused(let status): "token refused (\(status)): check ENTRUPY_RELAY_ENTRUPY_API_TOKEN"
        case .down(let reason): "unreachable: \(reason)"
        case .routeGone(let reason): "route gone: \(reason)"
        }
    }

    public init(checking error: (any Error)?) {
        switch error {
        case nil: self = .up
        case EntrupyAPIError.unauthorized(let status)?: self = .tokenRefused(status: status)
        case let error as EntrupyAPIError:
            if case .routeGone = error { self = .routeGone(error.description) } else { self = .down(error.description) }
        case let error?: self = .down(String(describing: error))
        }
    }
}
