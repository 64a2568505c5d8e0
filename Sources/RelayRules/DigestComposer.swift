public import RelayModel

/// Builds the one email that carries a group of email deliveries (`EmailGroup`): its subject
/// (`digest_subject` rendered with `count`, `rule` and the group's values, or "N notifications
/// from rule R") and a body listing each delivery's rendered text, and its HTML when any has
/// one. Pure: the deliver job calls it with the deliveries it claimed, oldest first.
public enum DigestComposer {
    /// The most deliveries one digest lists; the rest of a larger group go in the next one,
    /// sent straight after.
    public static let maxEntries = 500

    /// The digest of `entries` (the rule's deliveries of one group, oldest first); a single
    /// delivery goes out as it was rendered. Nil for none.
    public static func compose(rule: String, entries: [DeliveryPayload.Email]) -> DeliveryPayload.Email? {
        guard let first = entries.first else { return nil }
        if entries.count == 1 { return DeliveryPayload.Email(to: first.to, subject: first.subject, text: first.text, html: first.html) }
        let heading = heading(rule: rule, count: entries.count, group: first.group)
        let text = heading + ":\n\n" + entries.enumerated().map { index, entry in
            "\(index + 1). " + entry.text.replacingOccurrences(of: "\n", with: "\n   ")
        }.joined(separator: "\n\n") + "\n"
        var html: String?
        if entries.contains(where: { $0.html != nil }) {
            let items = entries.map { "<li>" + ($0.html ?? "<pre>" + escape($0.text) + "</pre>") + "</li>" }
            html = "<p>" + escape(heading) + ":</p>\n<ol>\n" + items.joined(separator: "\n") + "\n</ol>\n"
        }
        return DeliveryPayload.Email(to: first.to, subject: subject(rule: rule, count: entries.count, group: first.group),
                                     text: text, html: html)
    }

    /// `digest_subject` rendered, or the heading; on one line.
    static func subject(rule: String, count: Int, group: EmailGroup?) -> String {
        var subject = heading(rule: rule, count: count, group: group)
        if let source = group?.subject, let template = try? NotificationTemplate(source, kind: .text) {
            let values = (group?.values ?? [:]).merging(["count": String(count), "rule": rule]) { _, new in new }
            subject = template.render(values)
        }
        return String(subject.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) })
    }

    /// "N notifications from rule R (brand=Gucci)".
    static func heading(rule: String, count: Int, group: EmailGroup?) -> String {
        let label = group?.label ?? ""
        return "\(count) notifications from rule \(rule)" + (label.isEmpty ? "" : " (\(label))")
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
