/// Failures of the store that are not PostgreSQL's own errors. (Any error a store call threw
/// reads as text through `StoreFailure.describe`.)
public enum StoreError: Error, CustomStringConvertible {
    /// The database answered a batch without a row for one of its events (should not happen).
    case missingResult

    public var description: String {
        switch self {
        case .missingResult: "the database returned no row for a stored event"
        }
    }
}
