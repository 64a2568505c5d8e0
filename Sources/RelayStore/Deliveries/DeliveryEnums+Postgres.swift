import PostgresNIO
import RelayModel

/// Delivery states and channels are bound to SQL as their raw text; an unknown value fails
/// on decoding instead of being coerced.
extension DeliveryState: PostgresCodable {}

extension DeliveryChannel: PostgresCodable {}

extension BulkActionState: PostgresCodable {}
