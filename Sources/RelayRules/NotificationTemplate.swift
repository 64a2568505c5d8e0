import Mustache

/// A Mustache template from the rules file. Plain-text fields (subject, text) render values
/// as they are; HTML bodies escape them, so item data cannot inject markup; JSON bodies
/// (a callback's `body:`) escape them as the inside of a JSON string (`JSONStringContent`),
/// so item data cannot end the string it is written in.
public struct NotificationTemplate: Sendable {
    public enum Kind: Sendable { case text, html, json }

    public let source: String
    public let kind: Kind
    let template: MustacheTemplate

    public init(_ source: String, kind: Kind) throws {
        self.source = source
        self.kind = kind
        // The pragma switches swift-mustache's default HTML escaping off for plain text, or to
        // JSON string escaping for a callback body.
        switch kind {
        case .text: self.template = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + source)
        case .html: self.template = try MustacheTemplate(string: source)
        case .json:
            JSONStringContent.register()
            self.template = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(JSONStringContent.name)}}" + source)
        }
    }

    public func render(_ values: [String: String]) -> String {
        template.render(values)
    }

    /// Tags that would write a value unescaped or change how the rest is read: triple
    /// mustaches and `{{& name}}`, pragmas (`{{% CONTENT_TYPE: ...}}`) and new delimiters
    /// (`{{= ... =}}`). A JSON body refuses them, since each would let item data out of its string.
    public static func escapeBypassingTags(in source: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            let tag = rest.drop { $0 == " " }
            if let first = tag.first, "{&%=".contains(first) {
                let end = rest.range(of: "}}")?.upperBound ?? rest.endIndex
                tags.append("{{" + rest[..<end])
            }
        }
        return tags
    }

    /// Names the template refers to (variables and sections), for validation; partials are
    /// reported as `>name` because the relay has none to offer.
    public static func referencedNames(in source: String) -> [String] {
        var names: [String] = []
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            var tag = rest[open.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
            if tag.hasPrefix("{") { tag = tag.dropFirst(); if rest.hasPrefix("}") { rest = rest.dropFirst() } }
            tag = tag.drop { $0 == " " }
            guard let first = tag.first else { continue }
            switch first {
            case "!", "%", "=", "/": continue
            case "#", "^", "&": tag = tag.dropFirst()
            case ">", "<", "$": names.append(">" + tag.dropFirst().trimmingCharacters(in: .whitespaces)); continue
            default: break
            }
            var name = tag.trimmingCharacters(in: .whitespaces)
            // A transform such as uppercased(brand) names the variable inside the parentheses.
            if let openParen = name.firstIndex(of: "("), name.hasSuffix(")") {
                name = String(name[name.index(after: openParen)..<name.index(before: name.endIndex)])
            }
            names.append(name)
        }
        return names
    }
}
