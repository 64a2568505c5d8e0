public import RelayModel
public import RelayRuntime

/// Where the reconcile pipeline reads an item's truth: the Entrupy API (`EntrupyAPIClient`,
/// wired in RelayApp). Throws when no item came back.
public protocol ItemSource: Sendable {
    func item(entrupyID: String, priority: APIPriority) async throws -> EntrupyItem
    func lookup(customerItemID: String, priority: APIPriority) async throws -> EntrupyItem
}
