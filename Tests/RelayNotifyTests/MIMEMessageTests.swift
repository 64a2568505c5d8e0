import Foundation
import RelayModel
import RelayNotify
import Testing

@Suite("MIME messages and the SMTP wire format")
struct MIMEMessageTests {
    static func message(subject: String, text: String = "hello", html: String? = nil) -> MIMEMessage {
        MIMEMessage(from: "Relay <relay@example.com>", to: ["ops@example.com"], subject: subject, text: text, html: html,
                    date: Date(timeIntervalSince1970: 1_795_000_000), messageID: "dlv_1@example.com")
    }

    static func headerLines(_ rendered: String) -> [String] {
        rendered.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
    }

    @Test func headersCannotBeInjected() {
        let rendered = Self.message(subject: "sku\r\nBcc: victim@example.com\n\nbody?").rendered()
        let lines = Self.headerLines(rendered)
        #expect(!lines.contains { $0.lowercased().hasPrefix("bcc:") })
        #expect(lines.contains("Subject: sku Bcc: victim@example.com body?"))
        #expect(lines.allSatisfy { !$0.contains("\r") && !$0.contains("\n") })
    }

    @Test func requiredHeadersAndDate() {
        let lines = Self.headerLines(Self.message(subject: "hi").rendered())
        #expect(lines.contains("Date: Wed, 18 Nov 2026 11:06:40 +0000"))
        #expect(lines.contains("Message-ID: <dlv_1@example.com>"))
        #expect(lines.contains("MIME-Version: 1.0"))
        #expect(lines.contains("Content-Type: text/plain; charset=utf-8"))
        #expect(lines.contains("Content-Transfer-Encoding: quoted-printable"))
    }

    /// The Date header is computed by hand (a DateFormatter per message was costly): it says
    /// what a POSIX formatter says, across leap days, century rules and the epoch's edges,
    /// and clamps dates no header can carry instead of trapping.
    @Test func dateTextAgreesWithAFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 +0000")
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: 1_709_164_800.9)) == "Thu, 29 Feb 2024 00:00:00 +0000")
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: 4_107_542_400)) == "Mon, 01 Mar 2100 00:00:00 +0000")
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: 1e300)) == "Fri, 31 Dec 9999 23:59:59 +0000")
        #expect(MIMEMessage.dateText(Date(timeIntervalSince1970: -1e300)) == "Mon, 01 Jan 0001 00:00:00 +0000")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)))
            #expect(MIMEMessage.dateText(date) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func nonASCIISubjectsAreEncodedWords() throws {
        let subject = "Grüße — ✓ " + String(repeating: "ü", count: 40)
        let value = EncodedWord.headerValue(subject, nameLength: 9)
        let words = value.components(separatedBy: "\r\n ")
        #expect(words.count > 1)
        var decoded: [UInt8] = []
        for word in words {
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            #expect(word.count <= 76)
            decoded += try #require(Base64Bytes.decode(word.dropFirst(10).dropLast(2)))
        }
        #expect(String(decoding: decoded, as: UTF8.self) == subject)
    }

    @Test func longASCIISubjectsFold() {
        let value = EncodedWord.headerValue(String(repeating: "word ", count: 40), nameLength: 9)
        #expect(value.components(separatedBy: "\r\n ").allSatisfy { $0.count <= 78 })
        #expect(value.replacingOccurrences(of: "\r\n ", with: " ") == String(repeating: "word ", count: 40).trimmingCharacters(in: .whitespaces))
    }

    @Test func quotedPrintableKeepsTextReadableAndExact() {
        let text = "Plain line\nUnicode ✓ = equals\ntrailing space \n" + String(repeating: "x", count: 100)
        let encoded = QuotedPrintable.encode(text)
        #expect(encoded.contains("Plain line\r\n"))
        #expect(encoded.contains("Unicode =E2=9C=93 =3D equals"))
        #expect(encoded.contains("trailing space=20\r\n"))
        #expect(encoded.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(Self.decodeQP(encoded) == text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func htmlMakesMultipartAlternative() {
        let rendered = Self.message(subject: "s", text: "plain", html: "<p>rich</p>").rendered()
        let lines = Self.headerLines(rendered)
        let contentType = lines.first { $0.hasPrefix("Content-Type:") } ?? ""
        #expect(contentType.hasPrefix("Content-Type: multipart/alternative; boundary=\"=_relay_"))
        let boundary = contentType.components(separatedBy: "boundary=\"")[1].dropLast()
        #expect(rendered.components(separatedBy: "--\(boundary)\r\n").count == 3)
        #expect(rendered.hasSuffix("--\(boundary)--\r\n"))
        #expect(rendered.contains("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>rich</p>"))
    }

    @Test func dataIsDotStuffedAndTerminated() {
        let bytes = SMTPDataEncoder.encode("a\n.b\r\n..c\rd\r\n.")
        #expect(String(decoding: bytes, as: UTF8.self) == "a\r\n..b\r\n...c\r\nd\r\n..\r\n.\r\n")
        #expect(String(decoding: SMTPDataEncoder.encode(""), as: UTF8.self) == ".\r\n")
        #expect(String(decoding: SMTPDataEncoder.encode("x\r\n"), as: UTF8.self) == "x\r\n.\r\n")
    }

    static func decodeQP(_ text: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.first {
            input = input.dropFirst()
            guard byte == UInt8(ascii: "=") else { bytes.append(byte); continue }
            if input.starts(with: Array("\r\n".utf8)) { input = input.dropFirst(2); continue }
            bytes += HexBytes.decode(String(decoding: input.prefix(2), as: UTF8.self).lowercased()) ?? []
            input = input.dropFirst(2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
