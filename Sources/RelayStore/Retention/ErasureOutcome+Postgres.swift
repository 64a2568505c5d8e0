import PostgresNIO
import RelayModel

/// An erasure's outcome is bound to SQL as its raw text; an unknown stored value fails on
/// decoding instead of being read as one it is not.
extension ErasureOutcome: PostgresCodable {}
