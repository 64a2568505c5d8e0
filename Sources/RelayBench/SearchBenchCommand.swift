import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore

/// `relay-bench search`: times `GET /v1/items` through the real HTTP API, one request at a
/// time (latency, not throughput), over a mix of the searches support staff make. Prints
/// p50/p95/p99 per kind and for the whole mix.
struct SearchBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Time item searches through the query API.")

    @Option(help: "The relay's base URL.") var url: String
    @Option(help: "An API token.") var token: String
    @Option(help: "Requests per kind of search.") var rounds = 200
    @Option(help: "How many items were seeded (IDs ENT000000001 ...).") var items = 1_000_000

    static let brands = ["nike", "adidas", "louis_vuitton", "off_white", "jordan", "yeezy", "gucci", "chanel", "prada", "dior"]

    func kinds() -> [(String, (Int) -> String)] {
        let brands = Self.brands
        return [
            ("customer_item_id", { n in "customer_item_id=order-\((n * 7_919) % items + 1)" }),
            ("username", { n in "username=Org-user-\(n * 13 % 5_000)" }),
            ("brand+result", { n in "brand=\(brands[n % brands.count])&result=authentic" }),
            ("flag=flagged", { _ in "flag=flagged" }),
            ("last_days=7", { _ in "last_days=7" }),
            ("brand+flag+result", { n in "brand=\(brands[n % brands.count])&flag=flagged&result=authentic" }),
            ("two brands+category", { n in "brand=\(brands[n % brands.count])&brand=\(brands[(n + 3) % brands.count])&category=luxury" }),
            ("needs_review+since", { _ in "result=needs_review&since=2026-01-01" }),
            // Bounds inside days and months: partial days, whole days and whole months all count.
            ("category+range", { n in "category=sneakers&since=2025-0\(1 + n % 9)-14T10:30:00Z&until=2026-0\(1 + n % 9)-02T08:00:00Z" }),
            ("no filter", { _ in "" }),
            ("count_only category", { _ in "category=luxury&result_mode=count_only" }),
        ]
    }

    func run() async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        var all: [Double] = []
        var lines: [String] = []
        do {
            for (name, makeQuery) in kinds() {
                var times: [Double] = []
                var cursor: String?
                for round in 0..<rounds {
                    // Every fourth request of a kind asks for the next page of the previous one.
                    var query = makeQuery(round)
                    if round % 4 == 3, let next = cursor { query += "&cursor=\(next)" }
                    let started = ContinuousClock.now
                    var request = HTTPClientRequest(url: "\(url)/v1/items?limit=20&\(query)")
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    let response = try await http.execute(request, timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 1 << 20)
                    let elapsed = started.duration(to: .now)
                    guard response.status == .ok else {
                        throw ValidationError("\(name): \(response.status.code) \(String(buffer: body))")
                    }
                    cursor = (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["next_cursor"] as? String
                    if round >= 5 { times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
                }
                all += times
                lines.append("  \(name.padding(toLength: 22, withPad: " ", startingAt: 0))" + Self.summary(times))
            }
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
        print("search benchmark: \(items) items, \(rounds) requests per kind, one at a time, limit 20 with total_count")
        lines.forEach { print($0) }
        print("  \("whole mix".padding(toLength: 22, withPad: " ", startingAt: 0))" + Self.summary(all) + "   (target p95 < 20 ms)")
    }

    static func summary(_ times: [Double]) -> String {
        let sorted = times.sorted()
        func at(_ p: Double) -> String {
            String(format: "%6.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
        }
        return "p50 \(at(0.5)) ms   p95 \(at(0.95)) ms   p99 \(at(0.99)) ms"
    }
}
