import PostgresNIO

/// Turns postgres-nio errors into text for logs and operator messages. `PSQLError`'s own
/// description is deliberately vague, and transaction errors wrap the real cause.
public enum PostgresErrorText {
    public static func describe(_ error: any Error) -> String {
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError { return describe(inner) }
            if let inner = transaction.commitError { return describe(inner) }
            if let inner = transaction.beginError { return describe(inner) }
        }
        if let psql = error as? PSQLError {
            if let server = psql.serverInfo {
                let message = server[.message] ?? "server error"
                let code = server[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            if let underlying = psql.underlying { return "\(psql.code): \(underlying)" }
            return "\(psql.code)"
        }
        let text = String(reflecting: error)
        if isPoolClosed(error) { return "the connection pool is closed (the process is stopping)" }
        // The pool gives up after repeated failed connection attempts; say so plainly.
        if text.contains("connectionCreationCircuitBreakerTripped") || text.contains("ConnectionPoolError") {
            return "cannot connect to PostgreSQL (is it running, and are host, port and credentials right?)"
        }
        return text
    }

    /// Whether the pool was shut down: nothing asked of it can succeed any more.
    public static func isPoolClosed(_ error: any Error) -> Bool {
        String(reflecting: error).contains("poolShutdown")
    }

    /// The SQLSTATE of a server error, unwrapping transaction errors.
    public static func sqlState(_ error: any Error) -> String? {
        if let transaction = error as? PostgresTransactionError {
            return (transaction.closureError ?? transaction.commitError ?? transaction.beginError).flatMap(sqlState)
        }
        return (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Whether the server refused a row for a unique constraint (SQLSTATE 23505).
    public static func isUniqueViolation(_ error: any Error) -> Bool {
        sqlState(error) == PostgresError.Code.uniqueViolation.raw
    }
}
