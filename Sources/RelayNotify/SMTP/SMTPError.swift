/// Why a message was not accepted. `isPermanent` follows the reply code (5xx); a failure to
/// connect, a timeout or a 4xx is worth trying again later.
public enum SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered `reply` to `command`.
    case rejected(command: String, reply: SMTPReply)
    case connection(String)
    case timeout(waitingFor: String)
    case protocolViolation(String)
    /// The server lacks something the configuration requires (STARTTLS, AUTH).
    case unsupported(String)

    public var isPermanent: Bool {
        if case .rejected(_, let reply) = self { return reply.isPermanent }
        return false
    }

    public var reply: SMTPReply? {
        if case .rejected(_, let reply) = self { return reply }
        return nil
    }

    public var description: String {
        switch self {
        case .rejected(let command, let reply): "\(command) rejected: \(reply)"
        case .connection(let reason): "connection failed: \(reason)"
        case .timeout(let stage): "timed out waiting for \(stage)"
        case .protocolViolation(let reason): "protocol error: \(reason)"
        case .unsupported(let reason): reason
        }
    }
}
