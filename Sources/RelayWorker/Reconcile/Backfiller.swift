public import EntrupyAPI
public import Foundation
public import Logging
import RelayModel

/// `entrupy-relay backfill --since DATE`: walks every page of the search API for the date
/// range and stores each item as if it had just been fetched.
public struct Backfiller: Sendable {
    public struct Summary: Sendable, Equatable {
        public var pages = 0
        public var items = 0
        public var changed = 0
        public var transitions = 0
    }

    let api: EntrupyAPIClient
    let pipeline: ReconcilePipeline
    let logger: Logger

    /// Searched besides the known categories (`ENTRUPY_RELAY_SYNC_CATEGORIES`).
    let categories: [String]

    public init(api: EntrupyAPIClient, pipeline: ReconcilePipeline, categories: [String] = [], logger: Logger) {
        self.categories = categories
        self.api = api
        self.pipeline = pipeline
        self.logger = logger
    }

    public func run(since: Date, until: Date?, progress: @Sendable (Summary) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary()
        var query = SearchQuery(filters: [SearchQuery.categoryFilter(extra: categories)], limit: 25, startEpoch: Int64(since.timeIntervalSince1970), endEpoch: until.map { Int64($0.timeIntervalSince1970) })
        var seenCursors = Set<String>()
        while true {
            let observedAt = try await pipeline.clock()
            let page: SearchPage
            do {
                page = try await api.search(query)
            } catch EntrupyAPIError.rateLimited(let after) {
                try await Task.sleep(for: after ?? .seconds(1))
                continue
            }
            summary.pages += 1
            for item in page.items {
                let result = try await pipeline.apply(item, observedAt: observedAt, source: .backfill, followUps: nil)
                summary.items += 1
                if !result.transitions.isEmpty { summary.changed += 1 }
                summary.transitions += result.transitions.count
            }
            progress(summary)
            guard let cursor = page.nextCursor, !page.items.isEmpty else { break }
            // A server repeating a cursor would loop forever: stop instead.
            guard seenCursors.insert(cursor.jsonText).inserted else {
                logger.warning("search returned a cursor it had already returned; stopping")
                break
            }
            query.cursor = cursor
        }
        return summary
    }
}
