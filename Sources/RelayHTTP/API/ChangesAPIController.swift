import Foundation
import Hummingbird
import RelayModel

/// `GET /v1/changes?after=CURSOR&limit=N&wait=S`: every transition, in an order a reader follows
/// with the cursor and never skips one (even when transactions commit out of the order in
/// which they took their IDs: `PostgresChangeFeed`), optionally waiting up to `wait` seconds
/// for the next one. A cursor from another history of the database (a restore, a point-in-time
/// recovery, a failover) is 409 with what to do; text that is no cursor is 400.
public struct ChangesAPIController: Sendable {
    static let maxWaitSeconds = 30

    let feed: any ChangeFeedQueries

    public init(feed: any ChangeFeedQueries) {
        self.feed = feed
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "changes", needs: .readItems, use: list)
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let (cursor, limit, wait) = try request.query { pairs throws(QueryParameterError) in
            let query = try QueryParameters(pairs, allowed: ["after", "limit", "wait"])
            var cursor = ChangeCursor.start
            if let text = try query.single("after") {
                do throws(ChangeCursor.Invalid) {
                    cursor = try ChangeCursor.parse(text)
                } catch {
                    throw QueryParameterError("after", error.description)
                }
            }
            return (cursor, try query.integer("limit", in: 1...1_000) ?? 100, try query.integer("wait", in: 0...Self.maxWaitSeconds) ?? 0)
        }
        do {
            let entries = try await feed.changes(after: cursor, limit: limit, wait: .seconds(wait))
            return try JSONResponse.make(APIChanges(entries, after: cursor))
        } catch let error as ChangeCursor.Refused {
            throw APIError(.conflict, error.description)
        }
    }
}
