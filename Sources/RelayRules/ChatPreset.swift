public import RelayModel

/// A chat service's incoming-webhook message shape, as each documents it:
/// - `slack`: `{"text": ...}` with mrkdwn (Slack, "Sending messages using incoming webhooks");
/// - `google_chat`: `{"text": ...}` (Google Chat, "Build a Google Chat app as a webhook");
/// - `discord`: `{"content": ..., "allowed_mentions": {"parse": []}}`, content at most 2000
///   characters (Discord, "Execute Webhook"); item data cannot ping `@everyone`;
/// - `teams`: a message with one adaptive card attachment, as a Teams workflow ("Post to a
///   channel when a webhook request is received") takes it.
public enum ChatPreset: String, Sendable, CaseIterable {
    case slack
    case googleChat = "google_chat"
    case discord
    case teams

    /// The most characters (UTF-16 code units, which no service counts fewer of) the line may
    /// have; a longer one is cut at a character boundary and ends with "…".
    public var limit: Int {
        switch self {
        case .discord: 2000
        case .slack, .googleChat, .teams: 4000
        }
    }

    /// The message posted for these template values, with the rule's `text` or the preset's line.
    public func body(_ values: [String: String], operational: Bool, text: NotificationTemplate?) -> JSONValue {
        let values = escaped(values)
        let template = text ?? (operational ? operationalLine : itemLine)
        let line = Self.cut(template.render(values), to: limit)
        switch self {
        case .slack, .googleChat:
            return .object(["text": .string(line)])
        case .discord:
            return .object(["content": .string(line), "allowed_mentions": .object(["parse": .array([])])])
        case .teams:
            let card: JSONValue = .object([
                "$schema": .string("http://adaptivecards.io/schemas/adaptive-card.json"), "type": .string("AdaptiveCard"),
                "version": .string("1.4"),
                "body": .array([.object(["type": .string("TextBlock"), "text": .string(line), "wrap": .bool(true)])]),
            ])
            return .object([
                "type": .string("message"),
                "attachments": .array([.object([
                    "contentType": .string("application/vnd.microsoft.card.adaptive"), "contentUrl": .null, "content": card,
                ])]),
            ])
        }
    }

    /// What happened to an item: transition, IDs, brand and model, result, flag, and links.
    var itemLine: NotificationTemplate { Self.lines[self]!.item }
    /// What happened to a target or a delivery (delivery.dead, target.*).
    var operationalLine: NotificationTemplate { Self.lines[self]!.operational }

    private static let lines: [ChatPreset: (item: NotificationTemplate, operational: NotificationTemplate)] = {
        var lines: [ChatPreset: (item: NotificationTemplate, operational: NotificationTemplate)] = [:]
        for preset in ChatPreset.allCases {
            let markdown = preset == .discord || preset == .teams
            let bold = markdown ? "**" : "*"
            func link(_ name: String, _ label: String) -> String {
                markdown ? "[\(label)]({{\(name)}})" : "<{{\(name)}}|\(label)>"
            }
            let item = "\(bold){{transition}}\(bold): item {{entrupy_id}}"
                + "{{#customer_item_id}} ({{customer_item_id}}){{/customer_item_id}}"
                + "{{#brand}}, {{brand}}{{/brand}}{{#model}} {{model}}{{/model}}"
                + "{{#result_label}}: {{result_label}}{{/result_label}}{{^result_label}}: no result yet{{/result_label}}"
                + ", flag {{flag}}"
                + "{{#certificate_url}} · \(link("certificate_url", "certificate")){{/certificate_url}}"
                + "{{#photo_url}} · \(link("photo_url", "photo")){{/photo_url}}"
            let operational = "\(bold){{transition}}\(bold): target {{target}}"
                + "{{#target_state}} is {{target_state}}{{/target_state}}"
                + "{{#delivery_id}}, delivery {{delivery_id}}{{/delivery_id}}"
                + "{{#rule}} (rule {{rule}}{{#entrupy_id}}, item {{entrupy_id}}{{/entrupy_id}}){{/rule}}"
                + "{{#attempts}} after {{attempts}} attempts{{/attempts}}{{#by}} by {{by}}{{/by}}"
                + "{{#error}}: {{error}}{{/error}}"
            // Ours, and tested: they parse.
            lines[preset] = (try! NotificationTemplate(item, kind: .text), try! NotificationTemplate(operational, kind: .text))
        }
        return lines
    }()

    /// Item data made inert in this service's markup; the preset's own text is not touched.
    /// - Slack and Google Chat read `&`, `<` and `>` as markup (`<!channel>`, `<users/all>` ping everyone,
    ///   `<url|text>` is a link): they are written as `&amp;`, `&lt;` and `&gt;` (Slack, "Formatting text
    ///   for app surfaces"; Google Chat, "Format messages").
    /// - Discord and Teams (an adaptive card's TextBlock) read markdown: its special characters get a
    ///   backslash, which both honour; a value named `*_url`, which the line puts in a link's `(...)`, has
    ///   what could end or break that link percent-encoded instead (a URL means the same with them encoded).
    func escaped(_ values: [String: String]) -> [String: String] {
        switch self {
        case .slack, .googleChat:
            return values.mapValues(Self.slackEscaped)
        case .discord, .teams:
            var out = values
            for (name, value) in values {
                out[name] = name.hasSuffix("_url") ? Self.linkDestination(value) : Self.markdownEscaped(value)
            }
            return out
        }
    }

    static func markdownEscaped(_ value: String) -> String {
        var out = ""
        for character in value {
            if "\\*_~`[]()<>#|".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A URL kept usable as a markdown link's destination, and no link anywhere else: what could end or
    /// break the destination or open a link (`(`, `)`, `<`, `>`, `[`, `]`, `\`, backtick, spaces) as `%XX`.
    static func linkDestination(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            if "()<>[]\\` \t\r\n".unicodeScalars.contains(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += (hex.count == 1 ? "%0" : "%") + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func slackEscaped(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` in at most `limit` UTF-16 code units, cut between characters.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf16.count
            if kept + size > limit - 1 { break }
            kept += size
            end = text.index(after: index)
        }
        return String(text[..<end]) + "…"
    }
}
