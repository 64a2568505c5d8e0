import Foundation
import RelayCore

/// A notification email as RFC 5322 / MIME text with CRLF line ends: UTF-8 bodies in
/// quoted-printable, a multipart/alternative when there is an HTML body, an encoded subject.
/// Every header value passes through `EncodedWord`, so item data cannot add headers.
public struct MIMEMessage: Sendable, Equatable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var text: String
    public var html: String?
    public var date: Date
    /// Without angle brackets, e.g. `delivery-42.5f0c@relay.example.com`.
    public var messageID: String

    public init(from: String, to: [String], subject: String, text: String, html: String? = nil, date: Date, messageID: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.date = date
        self.messageID = messageID
    }

    public func rendered() -> String {
        var headers: [(String, String)] = [
            ("From", EncodedWord.sanitise(from)),
            ("To", to.map(EncodedWord.sanitise).joined(separator: ",\r\n ")),
            ("Subject", EncodedWord.headerValue(subject, nameLength: "Subject: ".count)),
            ("Date", Self.dateText(date)),
            ("Message-ID", "<\(EncodedWord.sanitise(messageID))>"),
            ("MIME-Version", "1.0"),
            ("Auto-Submitted", "auto-generated"),
        ]
        var body: String
        if let html {
            let boundary = "=_relay_" + HexBytes.encode(Array(messageID.utf8)).prefix(24)
            headers.append(("Content-Type", "multipart/alternative; boundary=\"\(boundary)\""))
            body = "This is a multipart message in MIME format.\r\n"
                + "--\(boundary)\r\n" + Self.part(type: "text/plain", content: text)
                + "--\(boundary)\r\n" + Self.part(type: "text/html", content: html)
                + "--\(boundary)--\r\n"
        } else {
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
            headers.append(("Content-Transfer-Encoding", "quoted-printable"))
            body = QuotedPrintable.encode(text) + "\r\n"
        }
        return headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n" + body
    }

    static func part(type: String, content: String) -> String {
        "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + QuotedPrintable.encode(content) + "\r\n"
    }

    /// RFC 5322 date in UTC: `Sat, 21 Nov 2026 10:04:05 +0000`.
    public static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
