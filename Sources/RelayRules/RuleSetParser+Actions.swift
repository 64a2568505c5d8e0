import Foundation
import RelayModel
import Yams

extension RuleSetParser.State {
    mutating func actions(_ node: Node) -> [RuleAction] {
        guard case .sequence(let entries) = node, !entries.isEmpty else {
            problem("notify", "expected a non-empty list of actions (email or webhook)", at: node)
            return []
        }
        var actions: [RuleAction] = []
        for (index, entry) in entries.enumerated() {
            let field = "notify[\(index)]"
            guard let fields = mapping(entry, field: field, allowed: ["email", "webhook"]) else { continue }
            guard fields.count == 1, let (kind, body) = fields.first else {
                if fields.isEmpty { problem(field, "expected email or webhook", at: entry) }
                else { problem(field, "one action per list entry: email or webhook, not both", at: entry) }
                continue
            }
            let action: RuleAction? = kind == "email"
                ? email(body, field: "\(field).email").map(RuleAction.email)
                : webhook(body, field: "\(field).webhook").map(RuleAction.webhook)
            if let action { actions.append(action) }
        }
        return actions
    }

    mutating func email(_ node: Node, field: String) -> EmailAction? {
        guard let fields = mapping(node, field: field, allowed: ["to", "subject", "text", "html"] + Self.groupingKeys) else { return nil }
        let before = problems.count
        var recipients: [String] = []
        if let toNode = fields["to"], let values = strings(toNode, field: "\(field).to") {
            for address in values {
                if EmailAddress.isValid(address) { recipients.append(address) }
                else { problem("\(field).to", "\"\(address)\" is not an email address", at: toNode) }
            }
        } else if fields["to"] == nil {
            problem("\(field).to", "required: one or more recipients", at: node)
        }
        let subject = template(fields["subject"], field: "\(field).subject", kind: .text, required: true, at: node)
        let text = template(fields["text"], field: "\(field).text", kind: .text, required: true, at: node)
        let html = template(fields["html"], field: "\(field).html", kind: .html, required: false, at: node)
        let emailGrouping = grouping(fields, field: field, at: node)
        guard problems.count == before, let subject, let text else { return nil }
        return EmailAction(to: recipients, subject: subject, text: text, html: html, grouping: emailGrouping)
    }

    mutating func webhook(_ node: Node, field: String) -> WebhookAction? {
        let keys = ["url", "secret", "unsigned", "headers", "body", "preset", "text"]
        guard let fields = mapping(node, field: field, allowed: keys) else { return nil }
        let before = problems.count
        let url = webhookURL(fields["url"], field: "\(field).url", at: node)
        let body = webhookBody(fields, field: field, at: node)
        let secret = webhookSecret(fields, preset: fields["preset"] != nil, field: field, at: node)
        var headers: [(name: String, value: String)] = []
        if let headersNode = fields["headers"] {
            if case .mapping(let pairs) = headersNode {
                for (key, value) in pairs {
                    let name = key.scalar?.string ?? ""
                    let path = "\(field).headers.\(name)"
                    if !HeaderName.isToken(name) {
                        problem(path, "not a valid header name", at: key)
                    } else if HeaderName.reserved.contains(name.lowercased()) {
                        problem(path, "set by the relay; cannot be overridden", at: key)
                    } else if let text = value.scalar?.string, value.null == nil,
                              !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                        headers.append((name, text))
                    } else {
                        problem(path, "expected a single-line string", at: value)
                    }
                }
            } else {
                problem("\(field).headers", "expected a mapping of header names to values", at: headersNode)
            }
        }
        guard problems.count == before, let url, let body else { return nil }
        return WebhookAction(url: url, secret: secret, signingKeyID: secret?.fingerprint, headers: headers, body: body)
    }

    /// `whsec_...`, or `${NAME}` read from the environment (or `NAME_FILE`). Never echoed.
    mutating func signingSecret(_ node: Node?, field: String, at parent: Node) -> WebhookSecret? {
        guard let written = string(node, field: field, required: true, at: parent),
              let text = referencedValue(written, field: field, at: node)?.value else { return nil }
        guard text.hasPrefix("whsec_"), let secret = WebhookSecret.standardWebhooks(text) else {
            problem(field, "expected a Standard Webhooks secret: whsec_ followed by base64 (value not shown)", at: node)
            return nil
        }
        return secret
    }

    mutating func template(_ node: Node?, field: String, kind: NotificationTemplate.Kind, required: Bool,
                           at parent: Node) -> NotificationTemplate? {
        guard let source = string(node, field: field, required: required, at: parent) else { return nil }
        for name in NotificationTemplate.referencedNames(in: source) where name != "." {
            if name.hasPrefix(">") {
                problem(field, "partials ({{\(name)}}) are not supported", at: node)
            } else if !variables.contains(name) {
                let known = variables.sorted().joined(separator: ", ")
                problem(field, "unknown variable \"\(name)\"; expected one of \(known)", at: node)
            }
        }
        do {
            return try NotificationTemplate(source, kind: kind)
        } catch {
            problem(field, "template does not parse: \(error)", at: node)
            return nil
        }
    }
}
