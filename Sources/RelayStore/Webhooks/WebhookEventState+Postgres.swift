import PostgresNIO
import RelayModel

/// Event states are bound to SQL as their raw text; an unknown value fails on decoding.
extension WebhookEventState: PostgresCodable {}
