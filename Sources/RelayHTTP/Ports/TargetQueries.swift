public import RelayModel

/// What the query API and the console read and do with delivery targets.
public protocol TargetQueries: Sendable {
    /// Every target with a row (one that ever failed or was disabled), worst first.
    func list() async throws -> [TargetSummary]
    /// An operator's enable or disable, by the target's ID or key; nil: no such target.
    func set(_ target: String, enabled: Bool, by operatorName: String) async throws -> TargetHealth?
}
