public import RelayModel

/// What an answer of Entrupy's looks like, in the words `entrupy check` prints: pure, so each
/// reading is unit tested.
public enum EntrupyAnswerShape {
    /// A lookup's answer: one item, or a list (the relay takes the latest).
    public static func lookup(_ json: JSONValue) -> EntrupyFinding {
        let list = EntrupyItemParser.lookupList(json)
        let latest: EntrupyItem?
        do {
            latest = try EntrupyItemParser.parseLookup(json)
        } catch {
            return EntrupyFinding("lookup", .differs, "the answer cannot be read: \(error)")
        }
        guard let latest else { return EntrupyFinding("lookup", .differs, "answered an empty list: the relay reads that as not found") }
        if let list {
            return EntrupyFinding("lookup", .ok, "answered a list of \(list.count); the relay takes the latest submitted, \(latest.entrupyID)")
        }
        return EntrupyFinding("lookup", .ok, "answered one item, \(latest.entrupyID)")
    }

    /// How a search page's cursor reads.
    public static func cursorKind(_ cursor: JSONValue?) -> String {
        switch cursor {
        case nil, .null?, .string("")?: "none (the last page)"
        case .string?: "a string"
        case .array?: "a list"
        case .number?: "a number"
        case .object?: "an object"
        case .bool?: "a boolean"
        }
    }

    /// Whether an item carries what the relay reads: its ID, result, flag, submission time and
    /// customer item ID, and in which version's shape.
    public static func item(_ json: JSONValue) -> EntrupyFinding {
        let item: EntrupyItem
        do {
            item = try EntrupyItemParser.parse(json)
        } catch {
            return EntrupyFinding("item shape", .differs, "\(error)")
        }
        let raw = item.raw
        let version = raw[path: "timestamp.created_at"] != nil || raw[path: "status.initial_result"] != nil ? "v2" : "v1.4"
        let flag: String
        switch raw[path: "status.flag"] {
        case nil, .null?: flag = "null"
        case .string?: flag = "a string"
        case .object?: flag = "an object"
        default: return EntrupyFinding("item shape", .differs, "status.flag is neither a string, null nor an object")
        }
        var missing: [String] = []
        if item.result == nil { missing.append("a result (status.result.id)") }
        if item.submittedAt == nil { missing.append("a submission time (event_times.submitted_at, timestamp.epoch or timestamp.created_at)") }
        let summary = "\(version) shape: \(item.entrupyID), result \(item.result ?? "none")\(item.resultFinal ? " (final)" : ""), flag \(flag)"
            + (item.customerItemID.map { ", customer item ID \($0)" } ?? ", no customer item ID")
        guard missing.isEmpty else {
            return EntrupyFinding("item shape", .differs, summary + "; lacks " + missing.joined(separator: " and "))
        }
        return EntrupyFinding("item shape", .ok, summary)
    }
}
