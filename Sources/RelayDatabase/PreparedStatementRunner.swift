import Logging
public import PostgresNIO

/// Runs prepared statements so that a failed preparation cannot poison a connection.
/// postgres-nio prepares a statement on a connection the first time it runs there and, when
/// that preparation fails, remembers the error under the statement's name for the life of
/// the connection: every later run there fails at once without asking the server. So a relay
/// started before `migrate` (its tables missing), a preparation cancelled by an operator or
/// a timeout, or a migration that changed a column the statement returns ("cached plan must
/// not change result type") would leave connections that refuse the statement for good.
/// After any server error that could have come from preparing, the connection is closed; the
/// pool opens a fresh one, which prepares again. Errors about the values themselves (data
/// exceptions, class 22; integrity violations, 23) come after a preparation succeeded, and
/// keep the connection.
///
/// Inlinable, so that each caller runs a version specialised to its statement: unspecialised,
/// every run instantiated the row sequence's generic types at run time.
public enum PreparedStatementRunner {
    /// The statement's rows, all of them (the relay's prepared statements answer a few).
    @inlinable
    public static func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement, on connection: PostgresConnection, logger: Logger
    ) async throws -> [Statement.Row] {
        do {
            var rows: [Statement.Row] = []
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        } catch {
            if mayHaveFailedPreparation(error) {
                logger.warning("closing a database connection after a prepared statement failed; the pool opens a new one",
                               metadata: ["statement": "\(Statement.name)", "error": "\(PostgresErrorText.describe(error))"])
                try? await connection.close()
            }
            throw error
        }
    }

    /// `rows(_:on:logger:)` on a connection of `client`'s pool.
    @inlinable
    public static func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement, on client: PostgresClient, logger: Logger
    ) async throws -> [Statement.Row] {
        try await client.withConnection { try await rows(statement, on: $0, logger: logger) }
    }

    /// A server error that is not about the values (class 22 or 23). Errors without a
    /// SQLSTATE (a lost connection) leave the connection to postgres-nio and the pool.
    @usableFromInline
    static func mayHaveFailedPreparation(_ error: any Error) -> Bool {
        guard let state = PostgresErrorText.sqlState(error) else { return false }
        return !["22", "23"].contains(String(state.prefix(2)))
    }
}
