/// What the target answered.
public struct CallbackResponse: Sendable, Equatable {
    public var status: Int
    /// From `Retry-After` (429 and 503), bounded.
    public var retryAfter: Duration?
    /// The first bytes of the body, for the attempt log.
    public var excerpt: String
    /// The response headers the caller asked for (`CallbackSender.send(_:now:keeping:)`), by lowercased name.
    public var headers: [String: String]

    /// A redirect's `Location` is not kept: it is the partner's URL, and may carry a secret.
    public init(status: Int, retryAfter: Duration?, excerpt: String, headers: [String: String] = [:]) {
        self.status = status
        self.retryAfter = retryAfter
        self.excerpt = excerpt
        self.headers = headers
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}
