/// Who a setting is for: what `config reference` shows (the operator's, each with why one would
/// change it) and what only `config reference --all` adds (the tuning knobs, whose defaults suit
/// almost every installation).
public enum SettingAudience: Sendable, Hashable {
    /// Set by whoever installs the relay; `why` says when one would change it, in a phrase.
    case `operator`(why: String)
    /// A knob whose default is right unless a measurement says otherwise.
    case tuning

    /// Why an operator would change it; nil for a tuning knob.
    public var why: String? {
        if case .operator(let why) = self { return why }
        return nil
    }
}
