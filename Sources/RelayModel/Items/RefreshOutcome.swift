/// What a "refresh now" did (`POST /v1/items/{id}/refresh`, `items refresh`, the console's button).
public enum RefreshOutcome: Sendable, Equatable {
    /// A fetch was queued ahead of the waiting work.
    case queued(jobID: Int64)
    /// The item's re-fetch was already queued (or retrying later): it now runs first, at once.
    case movedUp(jobID: Int64)
    /// The item's re-fetch is running now: that is the fetch.
    case running(jobID: Int64)
    /// Another fetch of the item (a webhook's) is under way now: that is the fetch.
    case fetching

    /// `queued`, `moved_up`, `running` or `fetching`.
    public var action: String {
        switch self {
        case .queued: "queued"
        case .movedUp: "moved_up"
        case .running: "running"
        case .fetching: "fetching"
        }
    }

    public var jobID: Int64? {
        switch self {
        case .queued(let id), .movedUp(let id), .running(let id): id
        case .fetching: nil
        }
    }

    /// What was done, in a sentence.
    public var message: String {
        switch self {
        case .queued: "the item will be fetched from Entrupy now, ahead of waiting work"
        case .movedUp: "a fetch of this item was already queued: it now runs first"
        case .running: "a fetch of this item is running now; its result shows in a moment"
        case .fetching: "the item is being fetched from Entrupy right now (after a webhook); its result shows in a moment"
        }
    }
}
