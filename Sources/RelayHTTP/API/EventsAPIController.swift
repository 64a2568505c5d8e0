import Foundation
import Hummingbird
import RelayCore

/// `GET /v1/events`: the raw webhooks as received (metadata, no bodies), for admins.
public struct EventsAPIController: Sendable {
    let events: any WebhookEventQueries

    public init(events: any WebhookEventQueries) {
        self.events = events
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "events", needs: .readEvents, use: list)
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        var query = try request.query(EventListQuery.parse)
        let limit = query.limit
        query.limit += 1
        let found = try await events.list(query)
        return try JSONResponse.make(APIPage("events", fetched: found, limit: limit, id: \.id, row: APIWebhookEvent.init))
    }
}
