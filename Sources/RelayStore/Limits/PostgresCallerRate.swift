import Logging
public import PostgresNIO
import RelayDatabase

/// At most `limit` calls per `window` for one caller (an API token), counted in PostgreSQL so
/// every replica shares it: the same sliding window as the Entrupy budget, in a row of its own
/// (`api_budget.name` = `<route>:<token id>`).
public struct PostgresCallerRate: Sendable {
    let client: PostgresClient
    let logger: Logger
    let route: String
    public let limit: Int
    public let window: Duration

    public init(client: PostgresClient, route: String, limit: Int, window: Duration, logger: Logger) {
        self.client = client
        self.route = route
        self.limit = max(1, limit)
        self.window = window
        self.logger = logger
    }

    /// Counts a call by `tokenID` and returns nil, or how long until it may call again.
    public func take(tokenID: Int64) async throws -> Duration? {
        let budget = PostgresAPIBudget(client: client, ratePerSecond: Double(limit), name: "\(route):\(tokenID)",
                                       windowMilliseconds: window.milliseconds, logger: logger)
        return try await budget.take(allowed: limit)
    }
}
