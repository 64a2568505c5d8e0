public import RelayModel

/// What the targets' maintenance needs of the store (`PostgresTargetHealthStore`, wired in
/// RelayApp): starting the probes that are due, draining healthy targets' held deliveries,
/// and every target for the gauges. Its row locks keep replicas from doing a target's work twice.
public protocol TargetMaintaining: Sendable {
    /// Makes a held delivery of each open target whose probe is due its probe (claimed until
    /// `lease` from now) and runs its job now; returns the deliveries picked.
    func startProbes(lease: Duration) async throws -> [Int64]
    /// Releases up to `perTarget` held deliveries of each healthy target, their jobs spread
    /// `spacing` apart; returns how many were released.
    func drain(perTarget: Int, spacing: Duration) async throws -> Int
    /// Every target with a row, with its held backlog, worst first.
    func list() async throws -> [TargetSummary]
}
