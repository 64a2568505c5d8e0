public import Foundation
import RelayModel

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

    /// RFC 5322 date in UTC: `Sat, 21 Nov 2026 10:04:05 +0000`. Computed, not formatted by
    /// a `DateFormatter`: creating one per message (an ICU formatter) was 15 % of the relay's
    /// CPU while it sent emails in the notify benchmark. Dates outside years 1-9999 are
    /// clamped to them (a header must stay four digits of year).
    public static func dateText(_ date: Date) -> String {
        let first = -62_135_596_800.0, last = 253_402_300_799.0 // 0001-01-01T00:00:00Z, 9999-12-31T23:59:59Z
        let time = date.timeIntervalSince1970
        let seconds = Int64((time.isNaN ? 0 : min(max(time, first), last)).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = Int(((days % 7) + 11) % 7) // 1970-01-01 was a Thursday (4, counting from Sunday)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(year)
        return "\(Self.weekdays[weekday]), \(two(day)) \(Self.months[Int(month) - 1]) "
            + String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + " \(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0000"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
