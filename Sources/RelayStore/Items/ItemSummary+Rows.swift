import RelayModel
import Foundation
import PostgresNIO
import RelayDatabase

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

    /// The next cells of a row, in `selectList`'s order.
    init(cells: inout PostgresRowCells) throws {
        let entrupyID: String = try cells.next(), customerItemID: String? = try cells.next(), result: String? = try cells.next()
        let resultFinal: Bool = try cells.next(), flag: String = try cells.next(), brand: String? = try cells.next()
        let category: String? = try cells.next(), username: String? = try cells.next(), submittedAt: Date? = try cells.next()
        let updatedAt: Date = try cells.next(), listedAt: Date = try cells.next()
        self.init(entrupyID: entrupyID, customerItemID: customerItemID, result: result, resultFinal: resultFinal, flag: flag,
                  brand: brand, category: category, username: username, submittedAt: submittedAt, updatedAt: updatedAt,
                  listedAt: listedAt)
    }
}
