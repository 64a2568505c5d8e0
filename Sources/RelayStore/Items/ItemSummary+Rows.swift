import RelayCore
import Foundation
import PostgresNIO

extension ItemSummary {
    /// The columns `init(row:)` decodes, in order (a constant: no value is ever spliced in).
    static let selectList = """
        entrupy_id, customer_item_id, result, result_final, flag, brand, category, username, submitted_at, updated_at, listed_at
        """

    typealias Row = (String, String?, String?, Bool, String, String?, String?, String?, Date?, Date, Date)

    init(row r: Row) {
        self.init(entrupyID: r.0, customerItemID: r.1, result: r.2, resultFinal: r.3, flag: r.4, brand: r.5, category: r.6,
                  username: r.7, submittedAt: r.8, updatedAt: r.9, listedAt: r.10)
    }
}
