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

    public init(host: String = "127.0.0.1", port: Int = 8090, webhookURL: String? = nil, webhookSecret: String = "sim-secret",
                apiToken: String = "sim-token", organisation: String = "SimOrg") {
        self.host = host
        self.port = port
        self.webhookURL = webhookURL
        self.webhookSecret = webhookSecret
        self.apiToken = apiToken
        self.organisation = organisation
    }
}
