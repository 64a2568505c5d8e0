/// A signed-in console user: who, and the CSRF token every form of the session must carry.
public struct ConsoleSession: Sendable, Equatable {
    public var caller: Caller
    public var csrfToken: String

    public init(caller: Caller, csrfToken: String) {
        self.caller = caller
        self.csrfToken = csrfToken
    }
}
