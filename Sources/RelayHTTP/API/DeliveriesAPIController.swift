import Foundation
import Hummingbird
import Logging
import RelayModel

/// `/v1/deliveries`: the outbox, newest first, and a retry that keeps the idempotency key.
public struct DeliveriesAPIController: Sendable {
    let deliveries: any DeliveryQueries

    public init(deliveries: any DeliveryQueries) {
        self.deliveries = deliveries
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "deliveries", needs: .readDeliveries, use: list)
        v1.on(.post, "deliveries/{id}/retry", needs: .retryDeliveries, use: retry)
        v1.on(.post, "deliveries/retry", needs: .retryDeliveries, use: retryMany)
    }

    /// Body: the filters (`state` dead or failed, `rule`, `target`, `item`, `channel`, `since`, `until`) and
    /// `dry_run`. 200 with the count for a dry run, 202 with what was queued for a run.
    @Sendable func retryMany(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONRequestBody.object(request, maxBytes: 4_096,
                                                   fields: ["state", "rule", "target", "item", "channel", "since", "until", "dry_run"])
        try JSONRequestBody.refuseNulls(body)
        func text(_ key: String) throws -> String? { try JSONRequestBody.string(body, key) }
        func date(_ key: String) throws -> Date? {
            guard let value = try text(key) else { return nil }
            // A bare date as `until` includes that day, as the deliveries list reads it.
            guard let date = key == "until" ? ISODate.parseUntil(value) : ISODate.parse(value) else {
                throw APIError(.badRequest, "field \"\(key)\": must be \(ISODate.expected)")
            }
            return date
        }
        let dryRun = try JSONRequestBody.dryRun(body)
        let filter: DeliveryFilter
        do {
            filter = try DeliveryFilter.parse(state: try text("state"), rule: try text("rule"), target: try text("target"),
                                              item: try text("item"), channel: try text("channel"), since: try date("since"),
                                              until: try date("until"))
        } catch let error as DeliveryFilter.Invalid {
            throw APIError(.badRequest, "field \"\(error.field)\": \(error.reason)")
        }
        do {
            let report = try await deliveries.retry(filter, requestedBy: "token \(caller.name)", dryRun: dryRun)
            return try JSONResponse.make(APIBulkRetry(report, filter: filter), status: dryRun ? .ok : .accepted)
        } catch let error as BulkRetryTooMany {
            throw APIError(.conflict, error.description)
        }
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let query = try request.query(DeliveryListQuery.parse)
        let fetched = try await deliveries.list(query.search, cursor: query.cursor, limit: query.limit + 1)
        let (shown, next) = PageCursor.page(fetched, limit: query.limit, cursor: \.pageCursor)
        return try JSONResponse.make(APIPage("deliveries", rows: shown.map(APIDelivery.init), nextCursor: next))
    }

    @Sendable func retry(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0 else { throw APIError(.badRequest, "parameter \"id\": must be a delivery ID (a positive whole number)") }
        let outcome = try await deliveries.retry(id: id)
        switch outcome {
        case .notFound: throw APIError(.notFound, "delivery \(id) does not exist")
        case .alreadyDelivered: throw APIError(.conflict, "delivery \(id) was already delivered")
        case .inFlight: throw APIError(.conflict, "delivery \(id) is being attempted right now")
        case .payloadRemoved(let why): throw APIError(.conflict, "delivery \(id) cannot be sent again: its payload was \(why)")
        case .queued:
            context.logger.info("api: delivery retry", metadata: ["delivery_id": "\(id)", "by": "\(caller.name)"])
            guard let record = try await deliveries.delivery(id: id) else { throw APIError(.notFound, "delivery \(id) does not exist") }
            return try JSONResponse.make(APIDeliveryRetried(record), status: .accepted)
        }
    }
}
