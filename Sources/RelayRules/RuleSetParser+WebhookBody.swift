import Foundation
import RelayModel
import Yams

/// A webhook action's body (`body:` or `preset:` with its `text:`) and whether it is signed.
extension RuleSetParser.State {
    /// The target's URL, written in the file or as `${NAME}` (a chat service's URL is its
    /// secret): read from the environment like a secret, and never echoed in a problem.
    mutating func webhookURL(_ node: Node?, field: String, at parent: Node) -> String? {
        guard let written = string(node, field: field, required: true, at: parent),
              let (url, fromEnvironment) = referencedValue(written, field: field, at: node) else { return nil }
        let parsed = URL(string: url)
        if parsed == nil || !["http", "https"].contains(parsed?.scheme?.lowercased() ?? "")
            || (parsed?.host ?? "").isEmpty || parsed?.fragment != nil {
            let shown = fromEnvironment ? "the value of \(written) (not shown)" : "\"\(url)\""
            problem(field, "\(shown) is not an absolute http or https URL", at: node)
            return nil
        }
        return url
    }

    /// `${NAME}` read through `secret` (the variable NAME, or the file NAME_FILE names), or
    /// the text as written; nil after a problem.
    mutating func referencedValue(_ written: String, field: String, at node: Node?) -> (value: String, fromEnvironment: Bool)? {
        let text = written.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("${"), text.hasSuffix("}") else { return (text, false) }
        let name = String(text.dropFirst(2).dropLast())
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            problem(field, "\"\(text)\" is not a valid ${NAME} reference", at: node)
            return nil
        }
        let value: String?
        do { value = try secret(name) } catch {
            problem(field, "environment variable \(name): \(error)", at: node)
            return nil
        }
        guard let value else {
            problem(field, "environment variable \(name) is not set", at: node)
            return nil
        }
        return (value, true)
    }

    /// The action's body; nil after a problem.
    mutating func webhookBody(_ fields: [String: Node], field: String, at node: Node) -> WebhookBody? {
        if fields["body"] != nil, fields["preset"] != nil {
            problem("\(field).body", "body and preset exclude each other: a preset is a built-in body", at: fields["body"])
            return nil
        }
        if let presetNode = fields["preset"] {
            guard let name = string(presetNode, field: "\(field).preset", required: true, at: node) else { return nil }
            guard let preset = ChatPreset(rawValue: name) else {
                let known = ChatPreset.allCases.map(\.rawValue).joined(separator: ", ")
                problem("\(field).preset", "unknown preset \"\(name)\"; expected one of \(known)", at: presetNode)
                return nil
            }
            guard let textNode = fields["text"] else { return .preset(preset, text: nil) }
            let before = problems.count
            let text = template(textNode, field: "\(field).text", kind: .text, required: true, at: node)
            guard problems.count == before, let text else { return nil }
            return .preset(preset, text: text)
        }
        if let textNode = fields["text"] {
            problem("\(field).text", "text is a preset's line; without a preset, write the whole body with body:", at: textNode)
            return nil
        }
        guard let bodyNode = fields["body"] else { return .standard }
        return jsonBody(bodyNode, field: "\(field).body", at: node).map(WebhookBody.template)
    }

    /// The secret signing the action's deliveries, nil for an unsigned chat target. Only a
    /// preset's target may go without one (the incoming-webhook URL is itself the secret):
    /// without `secret:`, or with `unsigned: true`. Check `problems` for failure.
    mutating func webhookSecret(_ fields: [String: Node], preset: Bool, field: String, at node: Node) -> WebhookSecret? {
        var unsigned: Bool?
        if let unsignedNode = fields["unsigned"] {
            if let value = unsignedNode.bool { unsigned = value } else { problem("\(field).unsigned", "expected true or false", at: unsignedNode) }
            if unsigned == true, !preset {
                problem("\(field).unsigned", "only a chat preset's target may be unsigned (its URL is its secret); "
                    + "every other callback is signed with Standard Webhooks headers", at: unsignedNode)
            }
            if unsigned == true, fields["secret"] != nil {
                problem("\(field).secret", "an unsigned target has no secret: remove secret or unsigned", at: fields["secret"])
            }
        }
        if unsigned == true || (preset && unsigned == nil && fields["secret"] == nil) { return nil }
        guard fields["secret"] != nil else {
            problem("\(field).secret", "required: callbacks are signed (Standard Webhooks); only a chat preset's target "
                + "(preset: slack, google_chat, discord or teams) may go without a secret", at: node)
            return nil
        }
        return signingSecret(fields["secret"], field: "\(field).secret", at: node)
    }

    /// A `body:` template: JSON-escaped values, the rule's variables only, and valid JSON for
    /// hostile, empty and absent values.
    mutating func jsonBody(_ node: Node, field: String, at parent: Node) -> NotificationTemplate? {
        guard let source = string(node, field: field, required: true, at: parent) else { return nil }
        if let tag = NotificationTemplate.escapeBypassingTags(in: source).first {
            problem(field, "\(tag) would write a value unescaped or change the escaping; write every value as {{name}} "
                + "inside a JSON string", at: node)
            return nil
        }
        let before = problems.count
        guard let template = template(node, field: field, kind: .json, required: true, at: parent), problems.count == before else {
            return nil
        }
        if let failure = JSONBodySamples.firstInvalid(template, variables: variables) {
            problem(field, "does not render valid JSON: \(failure) (every value is a string: write \"{{name}}\" in quotes)", at: node)
            return nil
        }
        return template
    }
}
