extension NewJob {
    /// The job kind that re-fetches one item (the sweep's and support's re-fetch).
    public static let reconcileItemKind = "reconcile_item"

    /// `reconcile_item {entrupy_id, source}`, at most one unfinished per item.
    public static func reconcileItem(entrupyID: String, source: ReconcileSource) -> NewJob {
        NewJob(kind: reconcileItemKind, args: .object(["entrupy_id": .string(entrupyID), "source": .string(source.label)]),
               uniqueKey: "reconcile:" + entrupyID, maxAttempts: 10)
    }
}
