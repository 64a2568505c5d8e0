import Foundation
import RelayModel

extension StoredItemState {
    /// From the `items` columns every read of it selects: result, result_final, flag, fetched_at,
    /// and `erased_at IS NOT NULL`.
    init(result: String?, resultFinal: Bool, flag: String, fetchedAt: Date, erased: Bool) {
        self.init(snapshot: ItemSnapshot(result: result, resultFinal: resultFinal, flag: flag), fetchedAt: fetchedAt, erased: erased)
    }
}
