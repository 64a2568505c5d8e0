/// Where a recorded bulk action (`bulk_actions.state`) stands. Its row is written `running`
/// before its work, so a process that dies part way leaves a record of what it was doing.
public enum BulkActionState: String, Sendable, Equatable, CaseIterable {
    case running
    case done
    /// Stopped by an error, which the row keeps.
    case failed
    /// Left `running` by a process that stopped making progress (died, or was killed); marked
    /// so by the next bulk action.
    case interrupted
}
