public import PostgresNIO

/// A prepared statement with one parameter, `$1`: it binds `parameter` and nothing else.
public protocol OneParameterStatement: PostgresPreparedStatement {
    associatedtype Parameter: PostgresNonThrowingEncodable
    var parameter: Parameter { get }
}

extension OneParameterStatement {
    public func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(parameter)
        return bindings
    }
}
