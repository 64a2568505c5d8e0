import PostgresNIO

extension PostgresAPIBudget {
    /// Takes a place in the window (see `take(allowed:)`). Every Entrupy request of every
    /// replica runs it, so it is prepared once per connection: PostgreSQL parses it once and
    /// soon plans it once too, where a fresh statement was parsed and planned on every call.
    ///
    /// Sends are appended in time order under the row's lock, so the array is sorted and the
    /// window is its tail: one count over it, then slices (no sort, no rebuilding from rows);
    /// the row keeps only the window's newest `limit`.
    /// Takes up to `places` at once (`APIBudgetReservoir`): as many as the window has room
    /// for, at least one. Answers (places taken, seconds of pause left, seconds until enough
    /// sends have left the window for this caller: the one `allowed` back from the newest).
    struct TakeStatement: PostgresPreparedStatement {
        typealias Row = (Int64, Double, Double)
        static let name = "api_budget_take"
        static let sql = """
            WITH current AS (
                SELECT paused_until, clock_timestamp() AS at, recent, coalesce(cardinality(recent), 0) AS n
                FROM api_budget WHERE name = $1 FOR UPDATE),
            counted AS (
                SELECT paused_until, at, recent, n,
                       least((SELECT count(*) FROM unnest(recent) AS t
                              WHERE t > at - $2 * interval '1 millisecond'), $3)::int AS used
                FROM current),
            taken AS (
                UPDATE api_budget SET recent = counted.recent[counted.n - counted.used + 1 : counted.n]
                                               || array_fill(counted.at, ARRAY[least($5, $4 - counted.used)::int])
                FROM counted
                WHERE api_budget.name = $1 AND counted.paused_until <= counted.at AND counted.used < $4
                RETURNING least($5, $4 - counted.used) AS places)
            SELECT coalesce((SELECT places FROM taken), 0)::int8,
                   extract(epoch FROM greatest(paused_until - at, interval '0'))::float8,
                   coalesce(extract(epoch FROM recent[greatest(n - used + 1, n - $4 + 1)]
                                    + $2 * interval '1 millisecond' - at), 0)::float8
            FROM counted
            """

        /// The budget's row (`api_budget.name`).
        let budget: String
        let windowMilliseconds: Int64
        let limit: Int
        let allowed: Int
        /// How many places to take while there is room (1 or more).
        let places: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(budget)
            bindings.append(windowMilliseconds)
            bindings.append(limit)
            bindings.append(allowed)
            bindings.append(max(1, places))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }
}
