import Foundation
import Hummingbird
import RelayModel

/// `GET /v1/events`: the raw webhooks as received (metadata, no bodies), for admins.
public struct EventsAPIController: Sendable {
    let events: any WebhookEventQueries

    public init(events: any WebhookEventQueries) {
        self.events = events
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "events", needs: .readEvents, use: list)
        v1.on(.get, "events/rejections", needs: .readEvents, use: rejections)
    }

    /// `GET /v1/events/rejections?limit=`: the last webhooks refused for their signature, by shape.
    @Sendable func rejections(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let limit = try request.query { pairs throws(QueryParameterError) in
            try QueryParameters(pairs, allowed: ["limit"]).integer("limit", in: 1...1_000) ?? 100
        }
        let found = try await events.rejections(limit: limit)
        return try JSONResponse.make(APIRejections(rejections: found.map(APIRejection.init)))
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        var query = try request.query(EventListQuery.parse)
        let limit = query.limit
        query.limit += 1
        let found = try await events.list(query)
        return try JSONResponse.make(APIPage("events", fetched: found, limit: limit, id: \.id, row: APIWebhookEvent.init))
    }
}
