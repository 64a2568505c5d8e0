/// What support can do to an item beyond reading it: flag it at Entrupy, have it fetched now.
/// Shared by the API, the console and the command line.
public struct ItemActions: Sendable {
    public let flagger: ItemFlagger
    public let refresher: any ItemRefreshing

    public init(flagger: ItemFlagger, refresher: any ItemRefreshing) {
        self.flagger = flagger
        self.refresher = refresher
    }
}
