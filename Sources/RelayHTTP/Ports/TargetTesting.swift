public import RelayModel

/// Test sends to the rules' targets (`POST /v1/targets/test`, the console's "Send test"): only
/// a rule's own action, never a URL the caller gives, so the API cannot be used to reach
/// arbitrary addresses. Nothing is recorded as a delivery.
public protocol TargetTesting: Sendable {
    /// Every action of the rules in force, in file order.
    func actions() -> [TestableAction]
    /// Sends a sample event through `rule`'s action `action`; `by` names the caller for the log.
    /// Throws `TargetTestProblem` for an unknown rule, an action out of range or a transition
    /// the rule does not match.
    func test(rule: String, action: Int, transition: String?, by: String) async throws -> TargetTestAnswer
}
