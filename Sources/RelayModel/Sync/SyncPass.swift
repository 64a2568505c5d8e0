public import Foundation

/// The sync pass under way: the submission window it walks, where it stopped, and what it
/// has counted so far. Resumed as it was after a restart.
public struct SyncPass: Sendable, Equatable {
    public var startedAt: Date
    public var windowStart: Date
    public var windowEnd: Date
    /// The search cursor to continue from; nil at the first page.
    public var cursor: JSONValue?
    public var pages: Int
    public var itemsChecked: Int
    public var changesFound: Int
    /// The tier of `SyncTiers` it walks (nil for a pass begun before tiers existed).
    public var tier: String?

    public init(startedAt: Date, windowStart: Date, windowEnd: Date, cursor: JSONValue?, pages: Int, itemsChecked: Int, changesFound: Int,
                tier: String? = nil) {
        self.tier = tier
        self.startedAt = startedAt
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.cursor = cursor
        self.pages = pages
        self.itemsChecked = itemsChecked
        self.changesFound = changesFound
    }
}
