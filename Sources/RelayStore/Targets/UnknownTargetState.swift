import RelayModel

/// A `delivery_targets` row whose state this release does not know (a newer release wrote it,
/// or someone by hand): reading it is an error naming the row, never a guess. Taken as healthy,
/// a target an operator disabled would be sent to again.
public struct UnknownTargetState: Error, Sendable, Equatable, CustomStringConvertible {
    public var id: Int64
    public var key: String
    public var state: String

    public init(id: Int64, key: String, state: String) {
        self.id = id
        self.key = key
        self.state = state
    }

    public var description: String {
        "delivery_targets row \(id) (\(key)) has state \"\(state.prefix(40))\", which this release does not know "
            + "(one of \(TargetState.allCases.map(\.rawValue).joined(separator: ", "))): a newer release or a hand wrote it; "
            + "run the release that wrote it, or set the row's state"
    }
}
