import Foundation
import RelayCore

/// The search route's logic: validate the body, filter (AND between filters, OR within one),
/// order newest first, and page with a keyset cursor `[submitted_at, entrupy_id]` that stays
/// correct while new items arrive.
enum SimSearch {
    struct Failure: Error { let message: String }

    struct Page {
        let items: [SimItem]
        let total: Int
        let nextCursor: JSONValue
    }

    static func run(_ body: JSONValue, items: [SimItem]) throws -> Page {
        guard body.objectValue != nil else { throw Failure(message: "body must be a JSON object") }
        let limitValue = body["limit"]?.int64Value ?? 20
        guard (1...25).contains(limitValue) else { throw Failure(message: "limit must be from 1 to 25") }
        var filters: [(String, Set<String>)] = []
        for filter in body["filters"]?.arrayValue ?? [] {
            guard let key = filter["key"]?.stringValue else { throw Failure(message: "each filter needs a key") }
            guard SimItem.filterKeys.contains(key) else { throw Failure(message: "unsupported filter key \(key)") }
            let values: [String]
            if let one = filter["value"]?.scalarText {
                values = [one]
            } else if let many = filter["values"]?.arrayValue {
                values = many.compactMap(\.scalarText)
            } else {
                throw Failure(message: "filter \(key) needs value or values")
            }
            filters.append((key, Set(values)))
        }
        let start = body["start_date"]?.doubleValue
        let end = body["end_date"]?.doubleValue
        var after: (Double, String)?
        switch body["cursor"] {
        case nil, .null?: break
        case .array(let parts)? where parts.isEmpty: break
        case .array(let parts)? where parts.count == 2:
            guard let epoch = parts[0].scalarText.flatMap(Double.init), let id = parts[1].stringValue else {
                throw Failure(message: "cursor is not one this server gave")
            }
            after = (epoch, id)
        default: throw Failure(message: "cursor is not one this server gave")
        }

        let matching = items.filter { item in
            if let start, start > 0, item.submittedAt < start { return false }
            if let end, end > 0, item.submittedAt > end { return false }
            return filters.allSatisfy { key, values in item.value(for: key).map(values.contains) ?? false }
        }.sorted { ($0.submittedAt, $0.entrupyID) > ($1.submittedAt, $1.entrupyID) }

        let remaining = after.map { cursor in matching.filter { ($0.submittedAt, $0.entrupyID) < cursor } } ?? matching
        let page = Array(remaining.prefix(Int(limitValue)))
        let next: JSONValue = remaining.count > page.count && !page.isEmpty
            ? .array([.string(String(page.last!.submittedAt)), .string(page.last!.entrupyID)])
            : .null
        return Page(items: page, total: matching.count, nextCursor: next)
    }
}
