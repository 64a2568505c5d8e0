/// How the simulator is started (`entrupy-sim` flags).
public struct SimulatorConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Where change webhooks go; none are sent when nil.
    public var webhookURL: String?
    public var webhookSecret: String
    /// The API token clients must send as `Authorization: Token <token>`.
    public var apiToken: String
    /// Prefix of the usernames authorize-user creates (`<org>-<unique_user_id>`), and
    /// `owner.organization.name` of every item.
    public var organisation: String
    /// Seed of the random generator behind every random choice; nil draws one (reported by
    /// `GET /_sim/config`, so a run can be repeated). `POST /_sim/config {"seed": N}` resets it.
    public var seed: UInt64?

    public init(host: String = "127.0.0.1", port: Int = 8090, webhookURL: String? = nil, webhookSecret: String = "sim-secret",
                apiToken: String = "sim-token", organisation: String = "SimOrg", seed: UInt64? = nil) {
        self.host = host
        self.port = port
        self.webhookURL = webhookURL
        self.webhookSecret = webhookSecret
        self.apiToken = apiToken
        self.organisation = organisation
        self.seed = seed
    }
}
