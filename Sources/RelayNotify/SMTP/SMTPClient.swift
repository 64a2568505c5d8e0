import Foundation
import Logging
public import NIOCore
public import NIOPosix
import NIOSSL
import RelayModel

/// A small SMTP client on SwiftNIO: EHLO (HELO as a fallback), STARTTLS or implicit TLS, AUTH
/// PLAIN or LOGIN, MAIL/RCPT/DATA with dot-stuffing, QUIT. Connections are reused: a few stay
/// open after a message (`SMTPConnectionPool`) and the next message goes straight to MAIL
/// FROM on one of them, so the greeting, EHLO, TLS handshake and AUTH are paid once per
/// connection, not per message; PIPELINING is used when offered. Every wait is bounded; errors keep the server's reply so 4xx retries and 5xx
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
        // A kept connection first. After a message the server is back in its initial state, so
        // no RSET is needed: MAIL FROM is the first command, and a kept connection that fails
        // before answering it (dropped, timed out, 421) is closed and the next one tried.
        // Nothing of the message itself was sent by then, so nothing can be sent twice.
        while let kept = pool.take() {
            do {
                return try await deliver(on: kept, from: sender, to: recipients, data: data)
            } catch is StaleConnection {
                continue
            }
        }
        let session = try await openSession()
        do {
            return try await deliver(on: session, from: sender, to: recipients, data: data)
        } catch let stale as StaleConnection {
            throw stale.error
        }
    }

    /// A new connection, greeted, secured and signed in; closed again when any of that fails.
    func openSession() async throws -> SMTPSession {
        let session = try await connect()
        do {
            try await handshake(session)
            return session
        } catch {
            await quit(session)
            throw error
        }
    }

    /// A connection that failed before its first reply of a message: not the message's fault.
    struct StaleConnection: Error {
        let error: any Error
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
            .connectTimeout(TimeAmount(configuration.connectTimeout))
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
                throw SMTPError.unsupported("the server does not offer STARTTLS (set tls=none in ENTRUPY_RELAY_SMTP_URL to send in clear)")
            }
            try await session.expect("STARTTLS", [220])
            try await startTLS(on: session)
            capabilities = try await hello(session)
        }
        if let username = configuration.username, let password = configuration.password {
            try await authenticate(session, username: username, password: password, capabilities: capabilities)
        }
        session.pipelining = capabilities.contains("PIPELINING")
    }

    /// MAIL, RCPT, DATA: one message on a ready connection. When the server offers
    /// PIPELINING (RFC 2920) the envelope commands go in one write and their replies are read
    /// in order: two round trips a message instead of four or more. The message itself is
    /// sent only after every command was accepted.
    func mail(_ session: SMTPSession, from sender: String, to recipients: [String], data: String) async throws -> SMTPReply {
        let commands = ["MAIL FROM:<\(sender)>"] + recipients.map { "RCPT TO:<\($0)>" } + ["DATA"]
        let expected: [Set<Int>] = [[250]] + recipients.map { _ in [250, 251] } + [[354]]
        if session.pipelining {
            try await session.write(Array(commands.map { $0 + "\r\n" }.joined().utf8))
            var replies: [SMTPReply] = []
            for command in commands {
                do {
                    replies.append(try await session.readReply(for: "the reply to \(command)"))
                } catch {
                    throw replies.isEmpty ? StaleConnection(error: error) : error
                }
                if replies.count == 1 && replies[0].code == 421 {
                    throw StaleConnection(error: SMTPError.rejected(command: command, reply: replies[0]))
                }
            }
            // The first refusal decides; the connection is closed after it (mid-DATA too, so
            // the server discards whatever the transaction had).
            for (index, reply) in replies.enumerated() where !expected[index].contains(reply.code) {
                throw SMTPError.rejected(command: commands[index], reply: reply)
            }
        } else {
            for (index, command) in commands.enumerated() {
                let reply: SMTPReply
                do {
                    reply = try await session.command(command)
                } catch {
                    throw index == 0 ? StaleConnection(error: error) : error
                }
                if index == 0 && reply.code == 421 { throw StaleConnection(error: SMTPError.rejected(command: command, reply: reply)) }
                guard expected[index].contains(reply.code) else { throw SMTPError.rejected(command: command, reply: reply) }
            }
        }
        try await session.write(SMTPDataEncoder.encode(data))
        let reply = try await session.readReply(for: "the reply to the end of DATA")
        guard reply.code == 250 else { throw SMTPError.rejected(command: Self.endOfData, reply: reply) }
        return reply
    }

    /// The command a reply to the message itself (after its final ".") is named by, apart from
    /// the DATA command's own reply.
    public static let endOfData = "end of DATA"

    /// EHLO, falling back to HELO; returns the extension keywords, upper-cased.
    func hello(_ session: SMTPSession) async throws -> [String] {
        let reply = try await session.command("EHLO \(configuration.heloName)")
        if reply.code == 250 { return reply.lines.dropFirst().map { $0.uppercased() } }
        guard reply.isPermanent else { throw SMTPError.rejected(command: "EHLO", reply: reply) }
        try await session.expect("HELO \(configuration.heloName)", [250])
        return []
    }

    /// Puts TLS in front of the line reader. Anything the server sent after its 220 arrived
    /// in plaintext: a man in the middle could have injected it to be read as if it came
    /// over TLS, so the client refuses (checked on the event loop, in the same step that adds
    /// the TLS handler, so nothing can arrive in between).
    func startTLS(on session: SMTPSession) async throws {
        guard let tlsContext else { throw SMTPError.unsupported("TLS is not configured") }
        let serverName = tlsServerName
        let channel = session.channel
        let consumed = session.linesRead
        let clean: Bool
        do {
            clean = try await channel.eventLoop.submit {
                let lines = try channel.pipeline.syncOperations.handler(type: SMTPLineHandler.self)
                guard lines.linesYielded == consumed, !lines.hasPartialLine else { return false }
                let handler = try NIOSSLClientHandler(context: tlsContext, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
                return true
            }.get()
        } catch {
            throw SMTPError.connection("starting TLS failed: \(error)")
        }
        guard clean else {
            throw SMTPError.protocolViolation("the server sent more after agreeing to STARTTLS; not starting TLS over plaintext that may have been injected")
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
            throw SMTPError.unsupported("the server offers no AUTH, but ENTRUPY_RELAY_SMTP_URL has credentials")
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
