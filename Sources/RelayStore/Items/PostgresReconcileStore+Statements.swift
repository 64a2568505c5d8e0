import Foundation
import PostgresNIO
import RelayDatabase

/// The small statements every reconcile runs, prepared once per connection: PostgreSQL
/// parses each once and soon plans it once, where a fresh statement was parsed and planned on
/// every call (the notify benchmark's profile spent more on that than on running them).
extension PostgresReconcileStore {
    /// The organisation's own ID for an Entrupy username (the latest authorised when several share it).
    struct UniqueUserIDStatement: OneParameterStatement {
        typealias Row = String
        static let name = "sdk_user_unique_id"
        static let sql = "SELECT unique_user_id FROM sdk_users WHERE username = $1 ORDER BY last_authorized_at DESC LIMIT 1"

        /// The Entrupy username.
        let parameter: String
    }

    /// Asks nothing: run after a statement on the same connection, it returns only once that
    /// statement's implicit transaction has committed durably (see `commit`).
    struct CommittedStatement: PostgresPreparedStatement {
        typealias Row = Int32
        static let name = "reconcile_committed"
        static let sql = "SELECT 1"

        func makeBindings() -> PostgresBindings {
            PostgresBindings()
        }
    }
}
