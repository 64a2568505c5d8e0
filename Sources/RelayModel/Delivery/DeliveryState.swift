/// Where a delivery stands: `pending` until its first attempt ends, `failed` while it waits
/// for a retry, then `delivered` or `dead` (retries spent, or a permanent refusal).
public enum DeliveryState: String, Sendable, CaseIterable {
    case pending
    case failed
    case delivered
    case dead
    /// Stopped by a silence (`DeliveryRecord.silenceID`): never sent unless an operator redrives it.
    case silenced
}
