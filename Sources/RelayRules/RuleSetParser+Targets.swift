import Foundation
import RelayModel
import Yams

/// The rules file's top-level `targets:` list: settings per delivery target, read next to its
/// rules. For now one, a target's rate limit (`TargetRateLimit`):
///
///     targets:
///       - url: https://partner.example
///         rate_limit: 5/s
///
/// A target is named as its breaker's host key names it: a callback URL's origin (scheme, host
/// and port; its limit holds for every path on it), or `smtp`, the mail server.
extension RuleSetParser.State {
    mutating func targets(_ node: Node) -> [String: TargetRateLimit] {
        guard case .sequence(let entries) = node else {
            if node.null == nil { problem("targets", "expected a list of targets, each a url and a rate_limit", at: node) }
            return [:]
        }
        var limits: [String: TargetRateLimit] = [:]
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let field = "targets[\(index)]"
            guard let fields = mapping(entry, field: field, allowed: ["url", "rate_limit"]),
                  let key = targetKey(fields["url"], field: "\(field).url", at: entry) else { continue }
            if let line = seen[key] {
                problem("\(field).url", "\(key) is listed twice (first on line \(line))", at: fields["url"])
                continue
            }
            seen[key] = entry.mark?.line ?? 0
            guard let rateNode = fields["rate_limit"] else {
                problem("\(field).rate_limit", "required: the most deliveries the target takes, such as 5/s or 30/m", at: entry)
                continue
            }
            guard let text = rateNode.scalar?.string, rateNode.null == nil else {
                problem("\(field).rate_limit", TargetRateLimit.ParseError.shape.description, at: rateNode)
                continue
            }
            switch TargetRateLimit.parse(text) {
            case .success(let limit): limits[key] = limit
            case .failure(let error): problem("\(field).rate_limit", "\"\(String(text.prefix(40)))\": \(error)", at: rateNode)
            }
        }
        return limits
    }

    /// `smtp`, or an http(s) URL with a host and no user, path, query or fragment: its origin.
    mutating func targetKey(_ node: Node?, field: String, at parent: Node) -> String? {
        guard let text = string(node, field: field, required: true, at: parent) else { return nil }
        if text.lowercased() == TargetKey.smtp { return TargetKey.smtp }
        let shape = "expected smtp or a callback target's origin, such as https://partner.example or http://10.0.0.5:8080"
        guard text.count <= 300, let url = URLComponents(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              !(url.host ?? "").isEmpty, url.user == nil, url.password == nil else {
            problem(field, shape, at: node)
            return nil
        }
        guard url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil else {
            problem(field, "a rate limit holds for a whole origin (every path on it): give the URL without its path or query, "
                + "such as \(TargetKey.origin(of: text))", at: node)
            return nil
        }
        return TargetKey.origin(of: text)
    }
}
