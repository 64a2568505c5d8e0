import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import RelayCore

/// A small SMTP client on SwiftNIO: EHLO (HELO as a fallback), STARTTLS or implicit TLS, AUTH
/// PLAIN or LOGIN, MAIL/RCPT/DATA with dot-stuffing, QUIT. Connections are reused: a few stay
/// open after a message (`SMTPConnectionPool`) and the next message starts with RSET on one
/// of them, so the greeting, EHLO, TLS handshake and AUTH are paid once per connection, not
/// per message. Every wait is bounded; errors keep the server's reply so 4xx retries and 5xx
/// does not.
public struct SMTPClient: Sendable {
    public let configuration: SMTPConfiguration
    let tlsContext: NIOSSLContext?
    let group: any EventLoopGroup
    let pool: SMTPConnectionPool

    /// - Parameter poolSize: connections kept open between messages (0: one connection per message).
    public init(configuration: SMTPConfiguration, poolSize: Int = 4,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        self.configuration = configuration
        self.group = group
        self.pool = SMTPConnectionPool(capacity: poolSize)
        if configuration.tls == .none {
            tlsContext = nil
        } else {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let caFile = configuration.caFile { tls.additionalTrustRoots = [.file(caFile)] }
            tlsContext = try NIOSSLContext(configuration: tls)
        }
    }

    /// Sends a message; returns the server's reply to the end of DATA (`250 ... queued as ...`).
    public func send(_ message: MIMEMessage) async throws -> SMTPReply {
        try await send(from: configuration.envelopeFrom, to: message.to, data: message.rendered())
    }

    public func send(from sender: String, to recipients: [String], data: String) async throws -> SMTPReply {
        guard !recipients.isEmpty else { throw SMTPError.protocolViolation("no recipients") }
        // A kept connection first; RSET shows it still works. One that fails before anything of
        // this message was sent is closed and a new one opened: nothing can be sent twice.
        while let kept = pool.take() {
            if (try? await kept.expect("RSET", [250])) != nil {
                return try await deliver(on: kept, from: sender, to: recipients, data: data)
            }
            await quit(kept)
        }
        let session = try await connect()
        do {
            try await handshake(session)
        } catch {
            await quit(session)
            throw error
        }
        return try await deliver(on: session, from: sender, to: recipients, data: data)
    }

    /// One message on an open, ready connection, which goes back to the pool when the server
    /// accepted the message and is closed otherwise.
    private func deliver(on session: SMTPSession, from sender: String, to recipients: [String], data: String) async throws -> SMTPReply {
        do {
            let reply = try await mail(session, from: sender, to: recipients, data: data)
            if let surplus = pool.giveBack(session) { await quit(surplus) }
            return reply
        } catch {
            await quit(session)
            throw error
        }
    }

    /// Says QUIT on every kept connection (at shutdown).
    public func shutdown() async {
        for session in pool.drain() { await quit(session) }
    }

    /// The server's name for certificate checks; nil for an IP literal (SNI takes names only).
    var tlsServerName: String? { IPAddress(configuration.host) == nil ? configuration.host : nil }

    func connect() async throws -> SMTPSession {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let implicitTLS = configuration.tls == .implicit ? tlsContext : nil
        let serverName = tlsServerName
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.nanoseconds(configuration.connectTimeout.nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: implicitTLS, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPLineHandler(continuation: continuation))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            continuation.finish()
            throw SMTPError.connection("\(configuration.host):\(configuration.port): \(error)")
        }
        return SMTPSession(channel: channel, lines: stream, timeout: configuration.commandTimeout)
    }

    /// Greeting, EHLO, STARTTLS and AUTH: what a new connection needs before its first message.
    func handshake(_ session: SMTPSession) async throws {
        let greeting = try await session.readReply(for: "the greeting")
        guard greeting.code == 220 else { throw SMTPError.rejected(command: "connect", reply: greeting) }
        var capabilities = try await hello(session)
        if configuration.tls == .starttls {
            guard capabilities.contains(where: { $0 == "STARTTLS" }) else {
                throw SMTPError.unsupported("the server does not offer STARTTLS (set tls=none in SMTP_URL to send in clear)")
            }
            try await session.expect("STARTTLS", [220])
            try await startTLS(on: session.channel)
            capabilities = try await hello(session)
        }
        if let username = configuration.username, let password = configuration.password {
            try await authenticate(session, username: username, password: password, capabilities: capabilities)
        }
    }

    /// MAIL, RCPT, DATA: one message on a ready connection.
    func mail(_ session: SMTPSession, from sender: String, to recipients: [String], data: String) async throws -> SMTPReply {
        try await session.expect("MAIL FROM:<\(sender)>", [250])
        for recipient in recipients {
            try await session.expect("RCPT TO:<\(recipient)>", [250, 251])
        }
        try await session.expect("DATA", [354])
        try await session.write(SMTPDataEncoder.encode(data))
        let reply = try await session.readReply(for: "the reply to the end of DATA")
        guard reply.code == 250 else { throw SMTPError.rejected(command: "DATA", reply: reply) }
        return reply
    }

    /// EHLO, falling back to HELO; returns the extension keywords, upper-cased.
    func hello(_ session: SMTPSession) async throws -> [String] {
        let reply = try await session.command("EHLO \(configuration.heloName)")
        if reply.code == 250 { return reply.lines.dropFirst().map { $0.uppercased() } }
        guard reply.isPermanent else { throw SMTPError.rejected(command: "EHLO", reply: reply) }
        try await session.expect("HELO \(configuration.heloName)", [250])
        return []
    }

    func startTLS(on channel: any Channel) async throws {
        guard let tlsContext else { throw SMTPError.unsupported("TLS is not configured") }
        let serverName = tlsServerName
        do {
            try await channel.eventLoop.submit {
                let handler = try NIOSSLClientHandler(context: tlsContext, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            }.get()
        } catch {
            throw SMTPError.connection("starting TLS failed: \(error)")
        }
    }

    func authenticate(_ session: SMTPSession, username: String, password: String, capabilities: [String]) async throws {
        let mechanisms = capabilities
            .filter { $0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=") }
            .flatMap { $0.dropFirst(5).split(separator: " ").map(String.init) }
        if mechanisms.contains("PLAIN") {
            let token = Base64Bytes.encode([0] + Array(username.utf8) + [0] + Array(password.utf8))
            try await session.expect("AUTH PLAIN \(token)", [235], shown: "AUTH PLAIN")
        } else if mechanisms.contains("LOGIN") {
            try await session.expect("AUTH LOGIN", [334])
            try await session.expect(Base64Bytes.encode(Array(username.utf8)), [334], shown: "AUTH LOGIN (user name)")
            try await session.expect(Base64Bytes.encode(Array(password.utf8)), [235], shown: "AUTH LOGIN (password)")
        } else if mechanisms.isEmpty {
            throw SMTPError.unsupported("the server offers no AUTH, but SMTP_URL has credentials")
        } else {
            throw SMTPError.unsupported("the server offers AUTH \(mechanisms.joined(separator: " ")); this client speaks PLAIN and LOGIN")
        }
    }

    /// Says goodbye without letting a slow server hold the delivery up, then closes.
    func quit(_ session: SMTPSession) async {
        if session.channel.isActive {
            try? await session.write(Array("QUIT\r\n".utf8))
            _ = try? await session.readReply(for: "the reply to QUIT", timeout: .seconds(2))
        }
        try? await session.channel.close()
    }
}
