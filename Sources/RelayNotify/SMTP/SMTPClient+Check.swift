extension SMTPClient {
    /// Connects, greets, secures and authenticates as a message would, then says QUIT without
    /// sending anything (`config check --connect`). Throws what the server or TLS refused.
    public func check() async throws {
        await quit(try await openSession())
    }
}
