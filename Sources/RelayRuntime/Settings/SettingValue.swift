/// A setting's text as one source gave it, and which: what `config show` prints and what an
/// error names (`ENTRUPY_RELAY_PORT`, `port in /etc/entrupy-relay/relay.yaml`).
public struct SettingValue: Sendable, Equatable {
    public let text: String
    /// Where it came from, phrased to be found: a variable's name, or a key and its file.
    public let origin: String

    public init(text: String, origin: String) {
        self.text = text
        self.origin = origin
    }
}
