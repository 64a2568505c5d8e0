/// One notification a rule decided to send for one transition, fully rendered, so a retry
/// sends exactly what the first attempt did whatever happens to the rules file meanwhile.
/// Unique per (transition, rule, action).
public struct PlannedDelivery: Sendable, Equatable {
    /// The transition that causes it: its position in the list of transitions planned
    /// together (the store turns it into the timeline row's ID).
    public var transitionIndex: Int
    public var entrupyID: String
    public var rule: String
    /// The action's position in the rule's `notify` list, from 0.
    public var actionIndex: Int
    /// Where it goes, for people: the callback URL's scheme and host, or the recipients joined with ", ".
    public var target: String
    /// What to send.
    public var payload: DeliveryPayload
    /// Names the signing secret (a fingerprint, never the secret) for webhooks.
    public var signingKeyID: String?

    public var channel: DeliveryChannel { payload.channel }

    public init(transitionIndex: Int, entrupyID: String, rule: String, actionIndex: Int,
                target: String, payload: DeliveryPayload, signingKeyID: String?) {
        self.transitionIndex = transitionIndex
        self.entrupyID = entrupyID
        self.rule = rule
        self.actionIndex = actionIndex
        self.target = target
        self.payload = payload
        self.signingKeyID = signingKeyID
    }
}
