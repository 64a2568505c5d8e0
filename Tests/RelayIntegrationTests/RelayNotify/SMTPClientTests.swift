import Foundation
import RelayModel
import RelayNotify
import Testing

/// The SMTP client against a real server: PyPI's aiosmtpd, plain, with STARTTLS or implicit
/// TLS, with AUTH PLAIN or LOGIN.
@Suite("SMTP client against aiosmtpd", .timeLimit(.minutes(3)))
struct SMTPClientTests {
    static func client(port: Int, tls: String, user: Bool = false, password: String = TestSMTPServer.password,
                       caFile: String? = nil, timeout: Duration = .seconds(10)) throws -> SMTPClient {
        let credentials = user ? "\(TestSMTPServer.user):\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)@" : ""
        return try SMTPClient(configuration: SMTPConfiguration(
            url: "smtp://\(credentials)localhost:\(port)?tls=\(tls)", from: "Relay <relay@example.com>",
            heloName: "relay.test", caFile: caFile, connectTimeout: .seconds(3), commandTimeout: timeout))
    }

    static let message = MIMEMessage(
        from: "Relay <relay@example.com>", to: ["ops@example.com", "qa@example.com"], subject: "Grüße: sku-1 is authentic",
        text: "Line one\n.starts with a dot\n..two dots\nUnicode: ✓ ü\n", html: nil,
        date: Date(timeIntervalSince1970: 1_795_000_000), messageID: "dlv_abc@example.com")

    @Test func sendsPlainMessageIntactWithDotStuffing() async throws {
        try await TestSMTPServer.with { server async throws in
            let reply = try await Self.client(port: server.port, tls: "none").send(Self.message)
            #expect(reply.code == 250)
            let mail = try #require(try server.messages().first)
            #expect(mail.from == "relay@example.com")
            #expect(mail.recipients == ["ops@example.com", "qa@example.com"])
            #expect(!mail.tls)
            // aiosmtpd removes the transparency dots again: the stored text equals what was rendered.
            #expect(mail.data.replacingOccurrences(of: "\r\n", with: "\n") == Self.message.rendered().replacingOccurrences(of: "\r\n", with: "\n"))
            #expect(mail.data.contains("\r\n.starts with a dot\r\n..two dots\r\n"))
            #expect(mail.header("Message-ID") == "<dlv_abc@example.com>")
            #expect(mail.header("Subject")?.hasPrefix("=?UTF-8?B?") == true)
        }
    }

    /// Messages reuse kept connections instead of paying the greeting, EHLO, TLS and AUTH each
    /// time, with and without PIPELINING; a rejected message closes its connection, and the
    /// next message opens another.
    @Test(arguments: [true, false])
    func keptConnectionsCarryMessageAfterMessage(pipelining: Bool) async throws {
        let certificate = try await TestCertificate.make()
        try await TestSMTPServer.with(tls: .starttls, auth: true, pipelining: pipelining, certificate: certificate) { server async throws in
            let client = try Self.client(port: server.port, tls: "starttls", user: true, caFile: certificate.certificate)
            for _ in 0..<5 { #expect(try await client.send(Self.message).code == 250) }
            let first = try server.messages()
            #expect(first.count == 5)
            #expect(Set(first.compactMap(\.peerPort)).count == 1, "one connection for five messages in a row")
            #expect(first.allSatisfy { $0.tls && $0.authenticated })
            #expect(first.allSatisfy { $0.pipelined == pipelining }, "the envelope went in one write exactly when PIPELINING was offered")

            let refused = MIMEMessage(from: "Relay <relay@example.com>", to: ["reject@example.com"], subject: "x", text: "x",
                                      html: nil, date: Date(), messageID: "dlv_refused@example.com")
            await #expect(throws: SMTPError.self) { try await client.send(refused) }
            #expect(try await client.send(Self.message).code == 250)
            let all = try server.messages()
            #expect(all.count == 6)
            #expect(all[5].peerPort != first[0].peerPort, "the connection of the refused message was not reused")
            await client.shutdown()
        }
    }

    @Test func startTLSWithAuthPlain() async throws {
        let certificate = try await TestCertificate.make()
        try await TestSMTPServer.with(tls: .starttls, auth: true, certificate: certificate) { server async throws in
            let client = try Self.client(port: server.port, tls: "starttls", user: true, caFile: certificate.certificate)
            #expect(try await client.send(Self.message).code == 250)
            let mail = try #require(try server.messages().first)
            #expect(mail.tls)
            #expect(mail.authenticated)
        }
    }

    @Test func startTLSWithAuthLoginOnly() async throws {
        let certificate = try await TestCertificate.make()
        try await TestSMTPServer.with(tls: .starttls, auth: true, mechanisms: ["LOGIN"], certificate: certificate) { server async throws in
            let client = try Self.client(port: server.port, tls: "starttls", user: true, caFile: certificate.certificate)
            #expect(try await client.send(Self.message).code == 250)
            #expect(try server.messages().first?.authenticated == true)
        }
    }

    @Test func implicitTLS() async throws {
        let certificate = try await TestCertificate.make()
        try await TestSMTPServer.with(tls: .implicit, auth: true, certificate: certificate) { server async throws in
            let client = try Self.client(port: server.port, tls: "implicit", user: true, caFile: certificate.certificate)
            #expect(try await client.send(Self.message).code == 250)
            #expect(try server.messages().first?.tls == true)
        }
    }

    @Test func untrustedCertificateIsRefusedAndRetryable() async throws {
        try await TestSMTPServer.with(tls: .starttls) { server async throws in
            do {
                _ = try await Self.client(port: server.port, tls: "starttls").send(Self.message)
                Issue.record("a self-signed certificate was accepted without ENTRUPY_RELAY_SMTP_CA_FILE")
            } catch let error as SMTPError {
                #expect(!error.isPermanent)
            }
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func wrongPasswordIsPermanent() async throws {
        let certificate = try await TestCertificate.make()
        try await TestSMTPServer.with(tls: .starttls, auth: true, certificate: certificate) { server async throws in
            let client = try Self.client(port: server.port, tls: "starttls", user: true, password: "wrong", caFile: certificate.certificate)
            let error = await #expect(throws: SMTPError.self) { try await client.send(Self.message) }
            #expect(error?.isPermanent == true)
            #expect(error?.reply?.code == 535)
            #expect(error.map { !$0.description.contains("wrong") } == true, "the password must not appear in errors")
        }
    }

    @Test func recipientRepliesDecideRetry() async throws {
        try await TestSMTPServer.with { server async throws in
            let client = try Self.client(port: server.port, tls: "none")
            var rejected = Self.message
            rejected.to = ["ok@example.com", "reject@example.com"]
            let permanent = await #expect(throws: SMTPError.self) { try await client.send(rejected) }
            #expect(permanent?.reply?.code == 550)
            #expect(permanent?.isPermanent == true)
            var deferred = Self.message
            deferred.to = ["defer@example.com"]
            let transient = await #expect(throws: SMTPError.self) { try await client.send(deferred) }
            #expect(transient?.reply?.code == 451)
            #expect(transient?.isPermanent == false)
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func startTLSRequiredButNotOfferedIsRefused() async throws {
        try await TestSMTPServer.with { server async throws in
            let client = try Self.client(port: server.port, tls: "starttls")
            let error = await #expect(throws: SMTPError.self) { try await client.send(Self.message) }
            #expect(error?.description.contains("STARTTLS") == true)
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func serverDownIsATransientConnectionError() async throws {
        let port = try await freePort()
        let client = try Self.client(port: port, tls: "none")
        let error = await #expect(throws: SMTPError.self) { try await client.send(Self.message) }
        #expect(error?.isPermanent == false)
        if case .connection = error {} else { Issue.record("expected a connection error, got \(String(describing: error))") }
    }

    @Test func silentServerTimesOut() async throws {
        // A TCP listener that accepts and never greets.
        try await withSilentListener { port async throws in
            let client = try Self.client(port: port, tls: "none", timeout: .milliseconds(500))
            let started = ContinuousClock.now
            let error = await #expect(throws: SMTPError.self) { try await client.send(Self.message) }
            #expect(error == .timeout(waitingFor: "the greeting"))
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    /// One refused recipient among several refuses the message for all: nothing is stored,
    /// even though PIPELINING sent DATA before the refusal was read.
    @Test(arguments: [true, false])
    func aRefusedRecipientAmongSeveralSendsNothing(pipelining: Bool) async throws {
        try await TestSMTPServer.with(pipelining: pipelining) { server async throws in
            let client = try Self.client(port: server.port, tls: "none", user: false, caFile: nil)
            let mixed = MIMEMessage(from: "Relay <relay@example.com>", to: ["ops@example.com", "reject@example.com"], subject: "x",
                                    text: "x", html: nil, date: Date(), messageID: "dlv_mixed@example.com")
            await #expect(throws: SMTPError.self) { try await client.send(mixed) }
            #expect(try await client.send(Self.message).code == 250)
            let stored = try server.messages()
            #expect(stored.count == 1, "only the second message arrived")
            #expect(stored.first?.data.contains("dlv_mixed") == false)
            await client.shutdown()
        }
    }

    /// A kept connection the server no longer wants (421 to MAIL FROM, as after an idle
    /// timeout) is closed and the message goes out on a new one: the sender sees no error.
    @Test(arguments: [true, false])
    func aKeptConnectionTheServerClosesIsReplaced(pipelining: Bool) async throws {
        try await TestSMTPServer.with(pipelining: pipelining) { server async throws in
            let client = try Self.client(port: server.port, tls: "none", user: false, caFile: nil)
            #expect(try await client.send(Self.message).code == 250)
            #expect(try await client.send(from: "stale@example.com", to: ["ops@example.com"], data: "Subject: s\r\n\r\nbody\r\n").code == 250)
            let stored = try server.messages()
            #expect(stored.count == 2)
            #expect(stored[1].from == "stale@example.com")
            #expect(stored[0].peerPort != stored[1].peerPort, "the second message went over a new connection")
            await client.shutdown()
        }
    }


    /// A man in the middle answers STARTTLS and appends a reply of its own in the same
    /// plaintext chunk, hoping it is read as if it came over TLS: the client refuses.
    @Test func plaintextAfterTheSTARTTLSReplyIsRefused() async throws {
        try await withScriptedSMTPPeer(reply: { line in
            if line.hasPrefix("EHLO") { return "250-scripted.test\r\n250-STARTTLS\r\n250 AUTH PLAIN\r\n" }
            if line == "STARTTLS" { return "220 go ahead\r\n235 2.7.0 injected: authenticated\r\n" }
            return nil
        }) { port async throws in
            let client = try Self.client(port: port, tls: "starttls", timeout: .seconds(5))
            do {
                _ = try await client.send(Self.message)
                Issue.record("the message was sent over a tampered connection")
            } catch let error as SMTPError {
                guard case .protocolViolation(let reason) = error else {
                    Issue.record("expected a protocol violation, got \(error)")
                    return
                }
                #expect(reason.contains("STARTTLS"))
            }
        }
    }


    /// A server that agrees to STARTTLS and then never answers the TLS handshake: the write
    /// of EHLO waits for the handshake, and that wait is bounded too (it used to hang).
    @Test func aTLSHandshakeThatNeverCompletesTimesOut() async throws {
        try await withScriptedSMTPPeer(reply: { line in
            if line.hasPrefix("EHLO") { return "250-scripted.test\r\n250 STARTTLS\r\n" }
            if line == "STARTTLS" { return "220 go ahead\r\n" }
            return nil
        }) { port async throws in
            let client = try Self.client(port: port, tls: "starttls", timeout: .seconds(2))
            let started = ContinuousClock.now
            await #expect(throws: SMTPError.self) { try await client.send(Self.message) }
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }


    /// Hostile SMTP servers (the fault suite): one that never greets, one that drips its
    /// greeting for ever, one that resets the connection at MAIL, one that puts NUL bytes and a
    /// 100 KB line in its replies. Each fails the message, within a bound, with an error whose
    /// text can be stored.
    @Test(arguments: ["silent", "drip", "reset", "nul", "long-line"])
    func hostileServersFailTheMessageInBoundedTime(behaviour: String) async throws {
        let greeting: String? = switch behaviour {
        case "silent": nil
        case "drip": "DRIP:220-" + String(repeating: "a", count: 200) + "\r\n"
        default: "220 scripted.test ESMTP\r\n"
        }
        try await withScriptedSMTPPeer(greeting: greeting, reply: { line in
            if line.hasPrefix("EHLO") { return "250-scripted.test\r\n250 PIPELINING\r\n" }
            if line.hasPrefix("MAIL") {
                switch behaviour {
                case "reset": return "RESET"
                case "nul": return "550 5.7.1 no\u{0}body \u{0} here\r\n"
                case "long-line": return "550 " + String(repeating: "x", count: 100_000) + "\r\n"
                default: return nil
                }
            }
            return "250 OK\r\n"
        }) { port async throws in
            // 5 s per reply: the scripted peer shares the test process's two threads with the whole
            // suite, and at 2 s a loaded machine once timed out before the peer got to its reset.
            let client = try Self.client(port: port, tls: "none", timeout: .seconds(5))
            let started = ContinuousClock.now
            do {
                _ = try await client.send(Self.message)
                Issue.record("\(behaviour): the message was accepted")
            } catch let error as SMTPError {
                switch (behaviour, error) {
                case ("silent", .timeout), ("drip", .timeout), ("reset", .connection), ("long-line", .protocolViolation): break
                case ("nul", .rejected(_, let reply)): #expect(error.isPermanent && reply.code == 550)
                default: Issue.record("\(behaviour): unexpected \(error)")
                }
            }
            #expect(ContinuousClock.now - started < .seconds(15), "\(behaviour) took \(ContinuousClock.now - started)")
        }
    }

}
