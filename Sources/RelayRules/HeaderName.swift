/// Checks for the extra headers a webhook action may add.
enum HeaderName {
    /// Headers the relay sets itself: overriding them would break signing or framing.
    static let reserved: Set<String> = [
        "content-type", "content-length", "host", "transfer-encoding", "connection",
        "webhook-id", "webhook-timestamp", "webhook-signature",
    ]

    /// RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")
        return !name.isEmpty && name.allSatisfy(allowed.contains)
    }
}
