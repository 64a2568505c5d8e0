import Foundation
import RelayModel
import Yams

/// An email action's grouping keys: `group_by`, `group_wait` or `digest`, `digest_subject`.
extension RuleSetParser.State {
    /// The keys an email action may carry for grouping.
    static let groupingKeys = ["group_by", "group_wait", "digest", "digest_subject"]

    /// The shortest and longest `group_wait`.
    static let groupWaitRange = 1...86_400

    /// The action's grouping, nil when it has none (or a problem was found, which is recorded).
    mutating func grouping(_ fields: [String: Node], field: String, at node: Node) -> EmailGrouping? {
        guard Self.groupingKeys.contains(where: { fields[$0] != nil }) else { return nil }
        let before = problems.count
        let groupBy = fields["group_by"].flatMap { groupByNames($0, field: "\(field).group_by") } ?? []
        var timing: EmailGroupTiming?
        switch (fields["group_wait"], fields["digest"]) {
        case (let wait?, nil): timing = groupWait(wait, field: "\(field).group_wait").map { .wait(seconds: $0) }
        case (nil, let digest?): timing = digestSchedule(digest, field: "\(field).digest").map { .digest($0) }
        case (_?, _?): problem(field, "give group_wait or digest, not both", at: fields["digest"])
        case (nil, nil): problem(field, "grouping needs group_wait (e.g. 10m) or digest ({at: \"08:00\", time_zone: UTC})", at: node)
        }
        let subject = fields["digest_subject"].flatMap { digestSubject($0, field: "\(field).digest_subject", groupBy: groupBy) }
        guard problems.count == before, let timing else { return nil }
        return EmailGrouping(groupBy: groupBy, timing: timing, subject: subject)
    }

    /// `rule` or template variables, each named once.
    mutating func groupByNames(_ node: Node, field: String) -> [String]? {
        guard let names = strings(node, field: field) else { return nil }
        var seen: Set<String> = []
        for name in names {
            if name != "rule" && !variables.contains(name) {
                let known = (["rule"] + variables.sorted()).joined(separator: ", ")
                problem(field, "unknown name \"\(name)\"; expected one of \(known)", at: node)
                return nil
            }
            if !seen.insert(name).inserted {
                problem(field, "\"\(name)\" is named twice", at: node)
                return nil
            }
        }
        return names
    }

    /// Seconds from `90`, `30s`, `10m` or `2h`, within `groupWaitRange`.
    mutating func groupWait(_ node: Node, field: String) -> Int? {
        guard let text = node.scalar?.string.trimmingCharacters(in: .whitespaces), node.null == nil else {
            problem(field, "expected a duration such as 30s, 10m or 2h", at: node)
            return nil
        }
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            problem(field, "\"\(text)\" is not a duration such as 30s, 10m or 2h", at: node)
            return nil
        }
        let seconds = number * (unit ?? 1)
        guard Self.groupWaitRange.contains(seconds) else {
            problem(field, "\"\(text)\" is out of range: from 1s to 24h", at: node)
            return nil
        }
        return seconds
    }

    /// `{at: "HH:MM", time_zone: Area/City}`; the zone defaults to UTC.
    mutating func digestSchedule(_ node: Node, field: String) -> DigestSchedule? {
        guard let fields = mapping(node, field: field, allowed: ["at", "time_zone"]) else { return nil }
        guard let at = string(fields["at"], field: "\(field).at", required: true, at: node) else { return nil }
        let zone = fields["time_zone"] == nil ? "UTC" : string(fields["time_zone"], field: "\(field).time_zone", required: true, at: node)
        guard let zone else { return nil }
        guard DigestSchedule.zone(named: zone) != nil else {
            problem("\(field).time_zone", "\"\(zone)\" is not a named time zone such as Europe/Paris or UTC", at: fields["time_zone"])
            return nil
        }
        guard let schedule = DigestSchedule(at: at, timeZone: zone) else {
            problem("\(field).at", "\"\(at)\" is not a time of day HH:MM from 00:00 to 23:59", at: fields["at"])
            return nil
        }
        return schedule
    }

    /// A plain-text template using only `count`, `rule` and the `group_by` names: the values
    /// every email of the group shares.
    mutating func digestSubject(_ node: Node, field: String, groupBy: [String]) -> NotificationTemplate? {
        guard let source = node.scalar?.string, node.null == nil else {
            problem(field, "expected a string", at: node)
            return nil
        }
        let allowed = Set(["count", "rule"] + groupBy)
        for name in NotificationTemplate.referencedNames(in: source) where !allowed.contains(name) {
            problem(field, "\"\(name)\" differs within a group; a digest subject may use \(allowed.sorted().joined(separator: ", "))", at: node)
            return nil
        }
        do {
            return try NotificationTemplate(source, kind: .text)
        } catch {
            problem(field, "template does not parse: \(error)", at: node)
            return nil
        }
    }
}
