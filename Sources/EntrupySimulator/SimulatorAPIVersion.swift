/// Which of Entrupy's REST API versions the simulated account speaks (`api_version` in
/// `/_sim/config`). Entrupy's v1.4 reference tells new applications to use v2 (contract 2a), so
/// the relay must live through three worlds: both served, v1 retired, and an account that never
/// got v2. `POST /v2/integrations/authorize-user` is served in all three: it was a v2 route
/// before the rest of v2 existed.
public enum SimulatorAPIVersion: String, Sendable, CaseIterable {
    /// v1 routes answer as they always have (v1.4 items, v1.4 webhooks); v2 routes are served too.
    case both
    /// Every `/v1/` route answers `v1_retired_status`; webhooks carry the v2 item.
    case v2Only = "2"
    /// Every `/v2/` route but authorize-user answers 404, as for an account without v2.
    case v1Only = "1.4"

    /// Whether webhooks carry the v2 item. Only once v1 is gone: a subscription's item format is
    /// fixed by the API version it was created with (contract section 3), and in `both` that
    /// is still v1.4.
    var webhooksInV2: Bool { self == .v2Only }

    /// `/_sim/config`'s accepted values, for the 400 message.
    static let described = "\"both\", \"2\" or \"1.4\""
}
