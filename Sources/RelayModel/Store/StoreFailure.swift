/// A storage driver's error that can say what went wrong for a log line (a driver's own
/// description may hide the server's message) and whether a statement ran past its time
/// limit. The PostgreSQL errors conform in RelayDatabase, so callers such as the HTTP layer
/// read failures without knowing the driver.
public protocol DescribedStoreFailure: Error {
    var storeFailureText: String { get }
    var isStatementTimeout: Bool { get }
}

/// Reads any error a store call threw.
public enum StoreFailure {
    /// Text for a log line: the driver's description where it has one.
    public static func describe(_ error: any Error) -> String {
        (error as? any DescribedStoreFailure)?.storeFailureText ?? String(reflecting: error)
    }

    /// Whether the database cancelled a statement that ran past its time limit.
    public static func isStatementTimeout(_ error: any Error) -> Bool {
        (error as? any DescribedStoreFailure)?.isStatementTimeout ?? false
    }
}
