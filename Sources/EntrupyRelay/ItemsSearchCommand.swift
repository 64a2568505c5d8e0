import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP

extension ItemsCommand {
    /// `items search`: the query API's filters as flags, checked by the same parser.
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search items, newest first. A flag may repeat (OR); different flags AND."
        )

        @Option(help: "Result: authentic, unknown, not_supported, needs_review, invalid, ...") var result: [String] = []
        @Option(help: "Flag: none, flagged or resolved.") var flag: [String] = []
        @Option(help: "Brand, e.g. nike.") var brand: [String] = []
        @Option(help: "Category: sneakers, luxury, apparel, ...") var category: [String] = []
        @Option(help: "Entrupy username of the submitter.") var username: [String] = []
        @Option(name: .customLong("customer-item-id"), help: "Exact customer item ID.") var customerItemID: [String] = []
        @Option(name: .customLong("unique-user-id"), help: "An SDK user's unique user ID.") var uniqueUserID: [String] = []
        @Option(help: "Submitted at or after (ISO 8601).") var since: String?
        @Option(help: "Submitted before (ISO 8601).") var until: String?
        @Option(name: .customLong("last-days"), help: "Submitted in the last N days.") var lastDays: String?
        @Option(help: "Page size, 1 to 100.") var limit: String?
        @Option(help: "The next_cursor of the previous page.") var cursor: String?
        @Flag(name: .customLong("count-only"), help: "Print only how many items match.") var countOnly = false
        @Flag(help: "Print JSON (the API's answer) instead of a table.") var json = false

        var pairs: [(String, String)] {
            var pairs: [(String, String)] = []
            for (name, values) in [("result", result), ("flag", flag), ("brand", brand), ("category", category),
                                   ("username", username), ("customer_item_id", customerItemID), ("unique_user_id", uniqueUserID)] {
                pairs += values.map { (name, $0) }
            }
            for (name, value) in [("since", since), ("until", until), ("last_days", lastDays), ("limit", limit), ("cursor", cursor)] {
                if let value { pairs.append((name, value)) }
            }
            if countOnly { pairs.append(("result_mode", "count_only")) }
            return pairs
        }

        func parsedQuery() throws -> ItemSearchQuery {
            do {
                return try ItemSearchQuery.parse(pairs)
            } catch {
                throw ValidationError("--\(error.parameter.replacingOccurrences(of: "_", with: "-")) \(error.message)")
            }
        }

        func validate() throws {
            _ = try parsedQuery()
        }

        func run() async throws {
            let query = try parsedQuery()
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let page = try await CommandEnvironment.database(environment) { client in
                try await PostgresItemStore(client: client, logger: logger).search(query)
            }
            if json {
                print(try OutputFormat.json(APIItemSummary.page(page)))
            } else if query.countOnly {
                print("\(page.totalCount) items")
            } else if page.items.isEmpty {
                print("no items match (\(page.totalCount) in all)")
            } else {
                print(OutputFormat.table(page.items))
                print("\n\(page.items.count) of \(page.totalCount)\(page.totalCountExact ? "" : "+") items" + (page.nextCursor.map { "; next page: --cursor \($0.text)" } ?? ""))
            }
        }
    }
}
