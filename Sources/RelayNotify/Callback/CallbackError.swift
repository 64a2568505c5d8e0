import RelayModel

/// Why a callback could not be sent at all (as opposed to an unhappy status code).
public enum CallbackError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURL(String)
    /// The target resolves into a range callbacks may not reach (unless ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS).
    case refusedAddress(host: String, address: String, scope: String)
    case unresolvable(host: String, reason: String)
    case timeout(seconds: Int)
    case transport(String)

    /// Refusals and malformed URLs do not get better by waiting.
    public var isPermanent: Bool {
        switch self {
        case .invalidURL, .refusedAddress: true
        case .unresolvable, .timeout, .transport: false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "not an http(s) URL: \(MaskedURL.mask(url))"
        case .refusedAddress(let host, let address, let scope):
            "refused: \(host) resolves to \(address), a \(scope) address (set ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS=true to allow)"
        case .unresolvable(let host, let reason): "cannot resolve \(host): \(reason)"
        case .timeout(let seconds): "no response within \(seconds) s"
        case .transport(let reason): "request failed: \(reason)"
        }
    }
}
