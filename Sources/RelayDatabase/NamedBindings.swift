public import PostgresNIO
public import RelayModel

/// Values for a `NamedSQL` statement, set by name and bound in the statement's order, so the
/// code that binds reads like the statement it binds.
///
/// Inlinable, like `PreparedStatementRunner`: every statement a webhook runs sets its values
/// here, and from another module an unspecialised `set` looked up the value type's metadata at
/// every call (the relay's profile at notify.sh 200/s: 4.6 % of its CPU in metadata lookups).
public struct NamedBindings {
    @usableFromInline var appenders: [String: (inout PostgresBindings) -> Void] = [:]

    @inlinable public init() {}

    @inlinable
    public mutating func set<Value: PostgresDynamicTypeEncodable>(_ name: String, _ value: Value) {
        appenders[name] = { $0.append(value) }
    }

    @inlinable
    public mutating func set<Value: PostgresDynamicTypeEncodable>(_ name: String, _ value: Value?) {
        appenders[name] = { $0.append(value) }
    }

    /// Adds `other`'s values (a fragment's, say); a name both set takes `other`'s value.
    @inlinable
    public mutating func merge(_ other: NamedBindings) {
        appenders.merge(other.appenders) { _, theirs in theirs }
    }

    /// The values in `sql`'s parameter order. A name given no value is bound NULL; the
    /// statements' tests assert `unset(in:)` is empty, so that never happens unnoticed.
    public func bindings(for sql: NamedSQL) -> PostgresBindings {
        assert(unset(in: sql).isEmpty, "no value for \(unset(in: sql)) in a named statement")
        var bindings = PostgresBindings(capacity: sql.names.count)
        for name in sql.names {
            if let append = appenders[name] { append(&bindings) } else { bindings.appendNull() }
        }
        return bindings
    }

    /// The statement's parameters given no value.
    public func unset(in sql: NamedSQL) -> [String] {
        sql.names.filter { appenders[$0] == nil }
    }

    /// Values given for names the statement does not have (a misspelt name).
    public func unused(in sql: NamedSQL) -> [String] {
        appenders.keys.filter { !sql.names.contains($0) }.sorted()
    }
}
