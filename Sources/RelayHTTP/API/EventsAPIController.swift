import Foundation
import Hummingbird
import RelayCore
import RelayStore

/// `GET /v1/events`: the raw webhooks as received (metadata, no bodies), for admins.
public struct EventsAPIController: Sendable {
    let auth: BearerAuthenticator
    let events: PostgresWebhookEventRepository

    public init(auth: BearerAuthenticator, events: PostgresWebhookEventRepository) {
        self.auth = auth
        self.events = events
    }

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/v1/events", use: list)
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        _ = try await auth.caller(request, context: context, needs: .readEvents)
        var query = try request.query(EventListQuery.parse)
        let limit = query.limit
        query.limit += 1
        let found = try await events.list(query)
        return try JSONResponse.make(APIPage("events", fetched: found, limit: limit, id: \.id, row: APIWebhookEvent.init))
    }
}
