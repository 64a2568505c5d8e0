import Foundation
import Hummingbird
import RelayCore

/// `/_sim/...`: how tests and people drive the simulator. Each change can send a webhook.
struct SimulatorAdminController: Sendable {
    let store: SimulatorStore
    let sender: WebhookSender

    static let results: Set<String> = ["authentic", "unknown", "not_supported", "needs_review", "invalid"]
    static let flags: Set<String> = ["none", "flagged", "resolved"]

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("/_sim/items") { request, _ in
            let body = try await SimResponse.body(request)
            guard let customerItemID = body["customer_item_id"]?.scalarText, !customerItemID.isEmpty else {
                return SimResponse.error(.badRequest, "customer_item_id is required")
            }
            let result = body["result"]?.stringValue ?? "needs_review"
            guard !result.isEmpty else { return SimResponse.error(.badRequest, "result must not be empty") }
            let item = store.create(
                customerItemID: customerItemID, brand: body["brand"]?.stringValue ?? "nike", model: body["model"]?.stringValue,
                category: body["category"]?.stringValue ?? "sneakers", username: body["username"]?.stringValue ?? "SimOrg-user",
                result: result, final: body["final"]?.boolValue ?? false
            )
            if body["webhook"]?.boolValue ?? true { sender.send(event: "session.completed", item: item) }
            return SimResponse.json(.object(["entrupy_id": .string(item.entrupyID), "item": item.json]), status: .created)
        }
        router.post("/_sim/items/:entrupy_id/result") { request, context in
            let id = try context.parameters.require("entrupy_id")
            let body = try await SimResponse.body(request)
            guard let result = body["result"]?.stringValue, !result.isEmpty else {
                return SimResponse.error(.badRequest, "result is required")
            }
            let final = body["final"]?.boolValue ?? EntrupyItemParser.defaultFinal(for: result)
            guard let item = store.modify(id, { $0.result = result; $0.final = final }) else {
                return SimResponse.error(.notFound, "no item \(id)")
            }
            if body["webhook"]?.boolValue ?? true { sender.send(event: "session.completed", item: item) }
            return SimResponse.json(.object(["item": item.json]))
        }
        router.post("/_sim/items/:entrupy_id/flag") { request, context in
            let id = try context.parameters.require("entrupy_id")
            let body = try await SimResponse.body(request)
            guard let flag = body["flag"]?.stringValue, Self.flags.contains(flag) else {
                return SimResponse.error(.badRequest, "flag must be none, flagged or resolved")
            }
            guard let item = store.modify(id, { $0.flag = flag }) else { return SimResponse.error(.notFound, "no item \(id)") }
            if body["webhook"]?.boolValue ?? true { sender.send(event: "authentication.changed", item: item) }
            return SimResponse.json(.object(["item": item.json]))
        }
        router.post("/_sim/config") { request, _ in
            let body = try await SimResponse.body(request)
            if let rate = body["rate_limit_per_second"], rate.doubleValue.map({ $0 < 0 }) ?? true {
                return SimResponse.error(.badRequest, "rate_limit_per_second must be a number >= 0")
            }
            if let errorRate = body["error_rate"], errorRate.doubleValue.map({ !(0...1).contains($0) }) ?? true {
                return SimResponse.error(.badRequest, "error_rate must be from 0 to 1")
            }
            if let latency = body["latency_ms"], latency.int64Value.map({ $0 < 0 || $0 > 60_000 }) ?? true {
                return SimResponse.error(.badRequest, "latency_ms must be from 0 to 60000")
            }
            let behaviour = store.update { b in
                if let rate = body["rate_limit_per_second"]?.doubleValue { b.rateLimitPerSecond = rate }
                if let errorRate = body["error_rate"]?.doubleValue { b.errorRate = errorRate }
                if let latency = body["latency_ms"]?.int64Value { b.latencyMilliseconds = Int(latency) }
                if let duplicates = body["duplicate_webhooks"] {
                    b.duplicateWebhooks = duplicates.boolValue.map { $0 ? 1 : 0 } ?? Int(duplicates.int64Value ?? 0)
                }
            }
            return SimResponse.json(.object([
                "rate_limit_per_second": .number(JSONNumber(behaviour.rateLimitPerSecond)), "error_rate": .number(JSONNumber(behaviour.errorRate)),
                "latency_ms": .number(JSONNumber(behaviour.latencyMilliseconds)), "duplicate_webhooks": .number(JSONNumber(behaviour.duplicateWebhooks)),
            ]))
        }
        router.get("/_sim/stats") { _, _ in
            let data = try JSONEncoder().encode(store.stats)
            return SimResponse.json((try? JSONValue.parse(Array(data))) ?? .null)
        }
    }
}
