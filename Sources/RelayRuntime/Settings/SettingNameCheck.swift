public import RelayModel

/// Catches a misspelt setting: every name a source gives under the relay's prefix (or every
/// key of its config file) must be one the relay reads, else start-up stops naming the
/// nearest that is.
public enum SettingNameCheck {
    /// The first of `given` (in sorted order) that is not in `known`, as an error naming the
    /// nearest known one (or, for a setting the relay read once, saying it is gone and why);
    /// nil when all are known. Names must match exactly, since values are read by their exact
    /// name: `entrupy_relay_port` would otherwise pass and be ignored.
    public static func firstUnknown(_ given: [String], known: [String]) -> SettingsError? {
        let knownSet = Set(known)
        guard let name = given.sorted().first(where: { !knownSet.contains($0) }) else { return nil }
        if let removed = RemovedSetting.named(name) { return .removed(name: name, release: removed.release, why: removed.why) }
        return .unknown(name: name, nearest: nearest(to: name, among: known))
    }

    /// The known name closest to `name` by edits (a letter added, dropped, changed or two
    /// swapped), when it is close enough to be what was meant.
    public static func nearest(to name: String, among known: [String]) -> String? {
        let target = Array(unprefixed(name).utf8)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(target, Array(unprefixed(candidate).utf8))
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best else { return nil }
        // A third of the name may be wrong (PROT for PORT, POOL_SZE for POOL_SIZE), at least 2 letters.
        return best.distance <= max(2, target.count / 3) ? best.name : nil
    }

    /// The name in upper case without the prefix every variable shares, which says nothing
    /// about which was meant.
    static func unprefixed(_ name: String) -> String {
        let upper = name.uppercased()
        return upper.hasPrefix(Setting.environmentPrefix) ? String(upper.dropFirst(Setting.environmentPrefix.count)) : upper
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
