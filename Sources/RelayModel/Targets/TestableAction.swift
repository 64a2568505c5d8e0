/// One action of a loaded rule that a test send can try (`POST /v1/targets/test`, the console's
/// "Send test"): named by its rule and its position in `notify` (from 0).
public struct TestableAction: Sendable, Equatable {
    public var rule: String
    public var action: Int
    public var channel: DeliveryChannel
    /// As deliveries show it: a callback's URL masked, an email's recipients.
    public var target: String

    public init(rule: String, action: Int, channel: DeliveryChannel, target: String) {
        self.rule = rule
        self.action = action
        self.channel = channel
        self.target = target
    }
}
