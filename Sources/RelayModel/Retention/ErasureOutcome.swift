/// What an erasure found: something stored to erase, or nothing at all (a key no row names,
/// or one already erased). Recorded with the erasure, so "done" never stands for "found nothing".
public enum ErasureOutcome: String, Sendable, Equatable {
    case erased
    case matchedNothing = "matched_nothing"
}
