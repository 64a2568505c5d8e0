import RelayDatabase
import Testing

@Suite("Named SQL parameters")
struct NamedSQLTests {
    @Test func namesAreNumberedInOrderOfFirstUse() {
        let sql = NamedSQL("UPDATE items SET result = :result::text WHERE entrupy_id = :entrupy_id AND result IS DISTINCT FROM :result")
        #expect(sql.text == "UPDATE items SET result = $1::text WHERE entrupy_id = $2 AND result IS DISTINCT FROM $1")
        #expect(sql.names == ["result", "entrupy_id"])
    }

    @Test func castsQuotesAndCommentsAreLeftAlone() {
        let sql = NamedSQL("""
            SELECT ':not_a_name', "col:umn", now()::timestamptz, x[1:2] -- :comment
            /* :block */ FROM t WHERE a = :a_1 AND b = 'it''s :quoted' AND c = :a_1
            """)
        #expect(sql.names == ["a_1"])
        #expect(sql.text == """
            SELECT ':not_a_name', "col:umn", now()::timestamptz, x[1:2] -- :comment
            /* :block */ FROM t WHERE a = $1 AND b = 'it''s :quoted' AND c = $1
            """)
    }

    @Test func anUnclosedQuoteOrCommentIsCopiedToTheEnd() {
        #expect(NamedSQL("SELECT 'open :x").text == "SELECT 'open :x")
        #expect(NamedSQL("SELECT 1 /* open :x").names.isEmpty)
        #expect(NamedSQL("SELECT :").text == "SELECT :")
    }
}
