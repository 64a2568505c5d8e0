public import Logging
import PostgresNIO
public import RelayModel
import RelayDatabase

/// One connection made as the pool would make it, to say plainly whether the database can be
/// reached (`config check --connect`). The pool retries a refused connection quietly; this
/// does not, so a wrong password or a certificate that does not verify is shown as it is.
public enum DatabaseProbe {
    public struct Answer: Sendable {
        public let serverVersion: String
        public let encrypted: Bool
        public let user: String
    }

    public static func check(_ url: DatabaseURL, logger: Logger) async throws -> Answer {
        let configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password,
            database: url.database, tls: try DatabaseClientFactory.connectionTLS(url))
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let rows = try await connection.query("""
                SELECT current_setting('server_version'), coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false), current_user::text
                """, logger: logger)
            var answer = Answer(serverVersion: "?", encrypted: false, user: url.username)
            for try await (version, ssl, user) in rows.decode((String, Bool, String).self) {
                answer = Answer(serverVersion: version, encrypted: ssl, user: user)
            }
            try await connection.close()
            return answer
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
