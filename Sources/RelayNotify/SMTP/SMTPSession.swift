import RelayModel
import NIOCore
import Synchronization

/// One open SMTP connection: writes commands and reads replies, each wait bounded by the
/// command timeout (the connection is closed when it runs out, which ends the read).
///
/// Used by one task at a time: whoever opened it, or took it from the `SMTPConnectionPool`,
/// has it alone until it is given back or closed. That is what makes the unchecked
/// `Sendable` safe: the pool only moves it between tasks, never shares it.
final class SMTPSession: @unchecked Sendable {
    let channel: any Channel
    private var lines: AsyncThrowingStream<String, any Error>.AsyncIterator
    let timeout: Duration
    private var parser = SMTPReplyParser()
    /// When the connection was opened and last given back (for the pool's idle limit).
    var idleSince = ContinuousClock.now
    /// The server offered PIPELINING in its (last) EHLO reply.
    var pipelining = false
    /// Lines taken from the stream so far: STARTTLS compares it with what arrived.
    private(set) var linesRead = 0

    init(channel: any Channel, lines: AsyncThrowingStream<String, any Error>, timeout: Duration) {
        self.channel = channel
        self.lines = lines.makeAsyncIterator()
        self.timeout = timeout
    }

    /// Reads one reply; `stage` names what it answers, for errors.
    func readReply(for stage: String, timeout: Duration? = nil) async throws -> SMTPReply {
        let expired = ExpiryFlag()
        let channel = self.channel
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout ?? self.timeout)) {
            expired.set()
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            while let line = try await lines.next() {
                linesRead += 1
                if let reply = try parser.feed(line) { return reply }
            }
        } catch let error as SMTPReplyParser.Malformed {
            throw SMTPError.protocolViolation(error.description)
        } catch {
            if expired.isSet { throw SMTPError.timeout(waitingFor: stage) }
            throw error as? SMTPError ?? SMTPError.connection("\(error)")
        }
        if expired.isSet { throw SMTPError.timeout(waitingFor: stage) }
        throw SMTPError.connection("the server closed the connection while we waited for \(stage)")
    }

    /// Writes and waits until the bytes are handed to the network, bounded by the command
    /// timeout like every read: a server that stops reading (or a TLS handshake that never
    /// completes, which holds writes back) closes the connection instead of hanging the send.
    func write(_ bytes: [UInt8]) async throws {
        let expired = ExpiryFlag()
        let channel = self.channel
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            expired.set()
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        } catch {
            if expired.isSet { throw SMTPError.timeout(waitingFor: "the server to take what was sent") }
            throw SMTPError.connection("writing failed: \(error)")
        }
    }

    /// Sends a command and reads its reply. `shown` replaces the command in errors (for AUTH).
    func command(_ line: String, shown: String? = nil) async throws -> SMTPReply {
        try await write(Array((line + "\r\n").utf8))
        return try await readReply(for: "the reply to \(shown ?? line)")
    }

    /// Sends a command and requires one of `codes`, else throws with the reply.
    @discardableResult
    func expect(_ line: String, _ codes: Set<Int>, shown: String? = nil) async throws -> SMTPReply {
        let reply = try await command(line, shown: shown)
        guard codes.contains(reply.code) else { throw SMTPError.rejected(command: shown ?? line, reply: reply) }
        return reply
    }
}

/// Set once by the timeout timer on the event loop, read by the waiting task.
final class ExpiryFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
