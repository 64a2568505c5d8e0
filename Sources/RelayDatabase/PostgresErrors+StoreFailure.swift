public import _ConnectionPoolModule
public import PostgresNIO
public import RelayModel

// postgres-nio's errors read through `StoreFailure` by callers that do not know the driver.

extension PSQLError: DescribedStoreFailure {
    public var storeFailureText: String { PostgresErrorText.describe(self) }
    public var isStatementTimeout: Bool { PostgresErrorText.sqlState(self) == "57014" }
}

extension PostgresTransactionError: DescribedStoreFailure {
    public var storeFailureText: String { PostgresErrorText.describe(self) }
    public var isStatementTimeout: Bool { PostgresErrorText.sqlState(self) == "57014" }
}

extension ConnectionPoolError: DescribedStoreFailure {
    public var storeFailureText: String { PostgresErrorText.describe(self) }
    public var isStatementTimeout: Bool { false }
}
