/// One thing a route needs; `Role.allows` decides.
public enum Permission: String, Sendable, CaseIterable {
    /// Items, their transitions and reconciliations.
    case readItems = "read items"
    /// Deliveries and their attempts (targets and errors), and the webhooks of an item.
    case readDeliveries = "read deliveries"
    case retryDeliveries = "retry deliveries"
    case reconcileItems = "reconcile items"
    /// Raw received webhooks, listed.
    case readEvents = "read events"
    case authorizeSDKUsers = "authorize SDK users"
    /// Who submitted an item: email, name and `unique_user_id` from the SDK users mirror.
    case readPeople = "read people"
    /// Erase a person's data (and read the erasure records): admin only.
    case erasePeople = "erase people"
    /// Send a sample event to a rule's target and read its answer (`POST /v1/targets/test`): admin only.
    case testTargets = "test targets"
}
