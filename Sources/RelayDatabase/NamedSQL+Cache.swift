public import RelayModel
import Synchronization

extension NamedSQL {
    private static let made = Mutex<[String: NamedSQL]>([:])

    /// The statement `key` names, numbered once per process: for texts that are computed (a
    /// generic statement's, per type), so binding a batch never reads the text again.
    public static func cached(_ key: String, _ make: () -> NamedSQL) -> NamedSQL {
        if let known = made.withLock({ $0[key] }) { return known }
        let sql = make()
        made.withLock { $0[key] = sql }
        return sql
    }
}
