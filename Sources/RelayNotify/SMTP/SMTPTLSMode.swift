/// How the SMTP connection is protected.
public enum SMTPTLSMode: String, Sendable, CaseIterable {
    /// Plain connect, then STARTTLS; refused when the server does not offer it. The default.
    case starttls
    /// TLS from the first byte (usually port 465).
    case implicit
    /// No TLS at all: only for a relay on the same host or a test server.
    case none
}
