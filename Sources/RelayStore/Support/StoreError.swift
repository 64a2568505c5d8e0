import RelayDatabase

/// Failures of the store that are not PostgreSQL's own errors.
public enum StoreError: Error, CustomStringConvertible {
    /// The database answered a batch without a row for one of its events (should not happen).
    case missingResult

    public var description: String {
        switch self {
        case .missingResult: "the database returned no row for a stored event"
        }
    }

    /// Any error a store call threw, as text for a log line: PostgreSQL's message and SQLSTATE
    /// (postgres-nio's own description hides them), so callers need not know the driver.
    public static func describe(_ error: any Error) -> String {
        PostgresErrorText.describe(error)
    }

    /// The server cancelled a statement that ran past `statement_timeout` (SQLSTATE 57014).
    public static func isStatementTimeout(_ error: any Error) -> Bool {
        PostgresErrorText.sqlState(error) == "57014"
    }
}
