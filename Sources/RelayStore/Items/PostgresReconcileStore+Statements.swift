import Foundation
import PostgresNIO
import RelayDatabase

/// The small statements every reconcile runs, prepared once per connection: PostgreSQL
/// parses each once and soon plans it once, where a fresh statement was parsed and planned on
/// every call (the notify benchmark's profile spent more on that than on running them).
extension PostgresReconcileStore {
    /// The stored state of an item, its row locked until the transaction ends.
    struct LockedStateStatement: OneParameterStatement {
        typealias Row = (String?, Bool, String, Date)
        static let name = "item_locked_state"
        static let sql = "SELECT result, result_final, flag, fetched_at FROM items WHERE entrupy_id = $1 FOR UPDATE"

        /// The item's Entrupy ID.
        let parameter: String

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    /// The organisation's own ID for an Entrupy username (the latest authorised when several share it).
    struct UniqueUserIDStatement: OneParameterStatement {
        typealias Row = String
        static let name = "sdk_user_unique_id"
        static let sql = "SELECT unique_user_id FROM sdk_users WHERE username = $1 ORDER BY last_authorized_at DESC LIMIT 1"

        /// The Entrupy username.
        let parameter: String

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }
}
