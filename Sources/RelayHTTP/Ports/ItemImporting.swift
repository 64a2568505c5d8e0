/// Pulls an item the relay has never seen from Entrupy through the reconcile path (support's
/// "import", `POST /v1/items/import`), so staff need not ask an operator to run `backfill`.
public protocol ItemImporting: Sendable {
    /// Fetches and stores the item; returns its Entrupy ID and whether it was new here.
    func importItem(_ target: ItemImportTarget) async throws(ItemImportError) -> (entrupyID: String, created: Bool)
}

public enum ItemImportTarget: Sendable, Equatable {
    case entrupyID(String)
    case customerItemID(String)
}

/// Why an import did not happen, as the API and the console say it.
public enum ItemImportError: Error, Sendable, Equatable {
    /// Entrupy has no such item (yet).
    case notFound
    /// Entrupy, or the relay's budget for it, cannot answer now; try again later.
    case unavailable(String)
}
