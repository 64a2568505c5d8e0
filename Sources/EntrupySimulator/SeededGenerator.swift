/// SplitMix64: a small, fast generator whose whole future follows from its seed, so a run
/// started with `POST /_sim/config {"seed": N}` draws the same choices again (given the same
/// requests in the same order): variants, faults, holds, capture times. Identifiers are not
/// drawn from it (see `SimIdentifier`): Entrupy never reuses an id, and a repeated run against
/// a relay that kept its database must not look like a replay. Used only under the store's lock.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private(set) var seed: UInt64
    private var state: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `rate` (0 never draws, so turning a fault off does not shift the
    /// sequence other choices see).
    mutating func chance(_ rate: Double) -> Bool {
        guard rate > 0 else { return false }
        return Double.random(in: 0..<1, using: &self) < rate
    }
}
