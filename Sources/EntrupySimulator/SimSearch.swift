/// The search route's logic: validate the body, filter (AND between filters, OR within one,
/// and `start_date` / `end_date` in epoch seconds on the submission time), order newest first,
/// and page with a keyset cursor `[submitted_at, entrupy_id]` that stays correct while new
/// items arrive. Keys it does not know are ignored, as a public API would.
struct SimSearch {
    struct Page {
        let items: [SimItem]
        /// Counted on the first page only (nil after).
        let total: Int?
        let nextCursor: SimJSON
    }

    let limit: Int
    let filters: [(key: String, values: Set<String>)]
    let start: Double?
    let end: Double?
    let after: (submittedAt: Double, entrupyID: String)?

    /// - Parameter defaultLimit: the page size when `limit` is absent (20 on v1; v2 documents 10).
    ///   Either way `limit` must be 1 to 25.
    init(_ body: SimJSON, defaultLimit: Int = 20) throws(SimInputError) {
        let fields = try InputFields(body)
        limit = Int(try fields.integer("limit", in: 1...25) ?? Int64(defaultLimit))
        var filters: [(key: String, values: Set<String>)] = []
        for (index, element) in (try fields.array("filters", maxCount: 50) ?? []).enumerated() {
            guard let members = element.objectValue else { throw SimInputError("filters[\(index)] must be an object") }
            let filter = InputFields(members: members, path: "filters[\(index)].")
            guard let key = try filter.string("key", maxLength: 128) else { throw SimInputError("filters[\(index)].key is required") }
            guard SimItem.filterKeys.contains(key) else { throw SimInputError("unsupported filter key \(key)") }
            if let one = filter.value("value") {
                guard let text = one.scalarText else { throw SimInputError("filters[\(index)].value must be a string") }
                filters.append((key, [text]))
            } else if let many = try filter.array("values", maxCount: 100) {
                let texts = many.compactMap(\.scalarText)
                guard texts.count == many.count else { throw SimInputError("filters[\(index)].values must be strings") }
                filters.append((key, Set(texts)))
            } else {
                throw SimInputError("filter \(key) needs value or values")
            }
        }
        self.filters = filters
        start = try fields.number("start_date", in: 0...1.0e12)
        end = try fields.number("end_date", in: 0...1.0e12)
        after = try Self.cursor(fields.value("cursor"))
    }

    /// `null`, `[]` or `[submitted_at, entrupy_id]` as this server gave it, or the same as one
    /// string `"submitted_at|entrupy_id"` (v2 documents the cursor as a string).
    private static func cursor(_ value: SimJSON?) throws(SimInputError) -> (Double, String)? {
        if let text = value?.stringValue {
            if text.isEmpty { return nil }
            let parts = text.split(separator: "|", maxSplits: 1)
            guard parts.count == 2, let epoch = Double(parts[0]), epoch.isFinite else { throw SimInputError("cursor is not one this server gave") }
            return (epoch, String(parts[1]))
        }
        guard let value, let parts = value.arrayValue, !parts.isEmpty else {
            if value == nil || value?.arrayValue != nil { return nil }
            throw SimInputError("cursor is not one this server gave")
        }
        guard parts.count == 2, let epoch = parts[0].scalarText.flatMap(Double.init), epoch.isFinite,
              let id = parts[1].stringValue else {
            throw SimInputError("cursor is not one this server gave")
        }
        return (epoch, id)
    }

    /// - Parameter cursorAsString: the next page's cursor as one string instead of a pair.
    /// - Parameter requireCategory: a search without a category filter finds nothing, as the
    ///   SDK says of Entrupy's ("the category filter is required for search results").
    /// - Parameter answerNothing: every search finds nothing (a filter Entrupy wants that the
    ///   caller does not send, another organisation's token).
    func run(in store: SimulatorStore, cursorAsString: Bool = false, requireCategory: Bool = false, answerNothing: Bool = false) -> Page {
        if answerNothing || (requireCategory && !filters.contains(where: { $0.key == "activity.product_category" })) {
            return Page(items: [], total: 0, nextCursor: .null)
        }
        func matches(_ item: SimItem) -> Bool {
            filters.allSatisfy { filter in item.value(forFilter: filter.key).map(filter.values.contains) ?? false }
        }
        let window = (start: start.flatMap { $0 > 0 ? $0 : nil }, end: end.flatMap { $0 > 0 ? $0 : nil })
        var page: [SimItem] = []
        var more = false
        store.newestFirst(below: after.map { SubmissionKey(submittedAt: $0.submittedAt, entrupyID: $0.entrupyID) },
                          start: window.start, end: window.end) { item in
            guard matches(item) else { return true }
            if page.count == limit {
                more = true
                return false
            }
            page.append(item)
            return true
        }
        // The total is counted on the first page only: counting the whole window on every page
        // would cost the simulator the window's size per call.
        var total: Int?
        if after == nil {
            var count = 0
            store.newestFirst(below: nil, start: window.start, end: window.end) { item in
                if matches(item) { count += 1 }
                return true
            }
            total = count
        }
        var next: SimJSON = .null
        if more, let last = page.last {
            next = cursorAsString ? .string("\(last.submittedAt)|\(last.entrupyID)")
                : .array([.string(String(last.submittedAt)), .string(last.entrupyID)])
        }
        return Page(items: page, total: total, nextCursor: next)
    }
}
