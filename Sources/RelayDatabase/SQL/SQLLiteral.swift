public import RelayModel

/// A state enum written into SQL as its raw value from the enum, never spelled in the SQL by
/// hand: a renamed case renames it in every statement. Statements bind states as parameters
/// where they can; a prepared statement's text and an `ON CONFLICT … WHERE` clause take the
/// literal instead (`sqlLiteral`), because a parameter there hides a partial index's predicate
/// from PostgreSQL (the generic plan of `state = $1` cannot use an index `WHERE state =
/// 'running'`, and the arbiter of `ON CONFLICT` is inferred before parameters are known).
public protocol SQLLiteral: RawRepresentable where RawValue == String {}

extension SQLLiteral {
    /// The raw value as a quoted SQL literal (`'running'`). Raw values are identifiers from
    /// the enum, with no quote to escape.
    public var sqlLiteral: String { "'" + rawValue + "'" }
}

extension DeliveryState: SQLLiteral {}
extension WebhookEventState: SQLLiteral {}
