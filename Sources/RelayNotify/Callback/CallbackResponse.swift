/// What the target answered.
public struct CallbackResponse: Sendable, Equatable {
    public var status: Int
    /// From `Retry-After` (429 and 503), bounded.
    public var retryAfter: Duration?
    /// The first bytes of the body, for the attempt log.
    public var excerpt: String
    /// Where a redirect pointed (not followed).
    public var location: String?

    public init(status: Int, retryAfter: Duration?, excerpt: String, location: String?) {
        self.status = status
        self.retryAfter = retryAfter
        self.excerpt = excerpt
        self.location = location
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}
