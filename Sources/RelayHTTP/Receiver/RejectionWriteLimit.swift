import RelayModel

/// Which refused webhooks are written down (`webhook_rejections` keeps about the last 1,000):
/// at most `perSecond` a second in all, `perClientPerMinute` a minute from one client, and one
/// a minute of each shape from one client, where a client is a `ClientBucket` (an IPv4 address,
/// an IPv6 /64), and at most `perNetworkPerMinute` from one IPv6 /48. So one sender's flood of
/// forgeries, from however many of its own addresses, cannot push everyone else's rejections
/// (Entrupy's own, with a new signature scheme) out of the table: it fills at most its own
/// share. Pure: the caller passes the time.
struct RejectionWriteLimit: Sendable {
    let perSecond: Int
    let perClientPerMinute: Int
    let perNetworkPerMinute: Int
    /// How many distinct clients and shapes are remembered within a minute; beyond it every
    /// write is refused until the minute ends (a flood from many addresses still costs at most
    /// `perSecond`).
    let memory: Int

    private var second: Int64 = .min
    private var inSecond = 0
    private var minute: Int64 = .min
    private var byClient: [String: Int] = [:]
    private var byNetwork: [String: Int] = [:]
    private var shapesSeen: Set<String> = []

    init(perSecond: Int = 20, perClientPerMinute: Int = 10, perNetworkPerMinute: Int = 20, memory: Int = 4_096) {
        self.perSecond = perSecond
        self.perClientPerMinute = perClientPerMinute
        self.perNetworkPerMinute = perNetworkPerMinute
        self.memory = memory
    }

    /// Whether a rejection of `shape` (any text naming it) from the client address `client` (as
    /// resolved, any text) at `epochSeconds` is written.
    mutating func admit(shape: String, client: String?, epochSeconds: Int64) -> Bool {
        if epochSeconds / 60 != minute {
            minute = epochSeconds / 60
            byClient.removeAll(keepingCapacity: true)
            byNetwork.removeAll(keepingCapacity: true)
            shapesSeen.removeAll(keepingCapacity: true)
        }
        if epochSeconds != second {
            second = epochSeconds
            inSecond = 0
        }
        let bucket = ClientBucket(client)
        let key = bucket.client + " " + shape
        guard inSecond < perSecond, byClient[bucket.client, default: 0] < perClientPerMinute, !shapesSeen.contains(key) else { return false }
        if let network = bucket.network, byNetwork[network, default: 0] >= perNetworkPerMinute { return false }
        guard shapesSeen.count < memory, byClient.count < memory || byClient[bucket.client] != nil else { return false }
        inSecond += 1
        byClient[bucket.client, default: 0] += 1
        if let network = bucket.network { byNetwork[network, default: 0] += 1 }
        shapesSeen.insert(key)
        return true
    }
}
