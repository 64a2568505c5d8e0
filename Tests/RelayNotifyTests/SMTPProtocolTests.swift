import RelayNotify
import Testing

@Suite("SMTP replies and configuration")
struct SMTPProtocolTests {
    @Test func multiLineReplies() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.feed("250-mail.example.com") == nil)
        #expect(try parser.feed("250-STARTTLS") == nil)
        let reply = try #require(try parser.feed("250 AUTH PLAIN LOGIN"))
        #expect(reply.code == 250)
        #expect(reply.lines == ["mail.example.com", "STARTTLS", "AUTH PLAIN LOGIN"])
        #expect(try parser.feed("354") == SMTPReply(code: 354, lines: [""]))
        #expect(try parser.feed("451 4.3.0 later")?.isTransient == true)
        #expect(try parser.feed("550 no")?.isPermanent == true)
    }

    @Test func malformedRepliesAreErrors() throws {
        var parser = SMTPReplyParser()
        #expect(throws: SMTPReplyParser.Malformed.self) { try parser.feed("hello") }
        #expect(throws: SMTPReplyParser.Malformed.self) { try parser.feed("25") }
        #expect(throws: SMTPReplyParser.Malformed.self) { try parser.feed("250x") }
        var mixed = SMTPReplyParser()
        #expect(try mixed.feed("250-a") == nil)
        #expect(throws: SMTPReplyParser.Malformed.self) { try mixed.feed("251 b") }
    }

    @Test func urlForms() throws {
        let starttls = try SMTPConfiguration(url: "smtp://us%40er:p%3Ass@mail.example.com?tls=starttls", from: "relay@example.com")
        #expect(starttls.host == "mail.example.com" && starttls.port == 587 && starttls.tls == .starttls)
        #expect(starttls.username == "us@er" && starttls.password == "p:ss")
        #expect(!starttls.description.contains("p:ss"))
        // A user in the URL with the password given apart (ENTRUPY_RELAY_SMTP_PASSWORD) is whole.
        let apart = try SMTPConfiguration(url: "smtp://user@mail.example.com", from: "a@b.c", password: "from-file")
        #expect(apart.username == "user" && apart.password == "from-file")
        #expect(throws: SMTPConfiguration.Invalid.self) { try SMTPConfiguration(url: "smtp://user@mail.example.com", from: "a@b.c") }
        #expect(try SMTPConfiguration(url: "smtps://mail.example.com", from: "a@b.c").port == 465)
        #expect(try SMTPConfiguration(url: "smtp://mail.example.com?tls=implicit", from: "a@b.c").tls == .implicit)
        #expect(try SMTPConfiguration(url: "smtp://127.0.0.1:2525?tls=none", from: "a@b.c").port == 2525)
        let named = try SMTPConfiguration(url: "smtp://h", from: "Entrupy Relay <relay@example.com>")
        #expect(named.envelopeFrom == "relay@example.com" && named.fromDomain == "example.com")
        for bad in ["http://h", "smtp://", "smtp://h?tls=maybe", "smtp://h?mode=x", "smtp://user@h"] {
            #expect(throws: SMTPConfiguration.Invalid.self, "\(bad)") { try SMTPConfiguration(url: bad, from: "a@b.c") }
        }
        for bad in ["nobody", "a@b\r\nBcc: x@y", "a b@c"] {
            #expect(throws: SMTPConfiguration.Invalid.self, "\(bad)") { try SMTPConfiguration(url: "smtp://h", from: bad) }
        }
    }
}
