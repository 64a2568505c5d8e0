import Testing
@testable import RelayDatabase

@Suite("Splitting migration files into statements")
struct SQLStatementSplitterTests {
    @Test func splitsAtTopLevelSemicolonsOnly() {
        let sql = """
        -- a comment; with a semicolon
        CREATE TABLE a (x text DEFAULT 'semi;colon', "we;ird" int);
        /* block; comment /* nested; */ still */ INSERT INTO a VALUES ('it''s;');
        CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM 1; RETURN NULL; END;
        $$;
        CREATE FUNCTION g() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
        SELECT E'back\\'slash;', $1;
        ;;
        -- trailing comment only
        """
        let statements = SQLStatementSplitter.split(sql)
        #expect(statements.count == 5)
        #expect(statements[0].hasSuffix("\"we;ird\" int)"))
        #expect(statements[1].hasSuffix("VALUES ('it''s;')"))
        #expect(statements[2].contains("PERFORM 1; RETURN NULL; END;"))
        #expect(statements[3].contains("$body$ SELECT 1; $body$"))
        #expect(statements[4] == "SELECT E'back\\'slash;', $1")
    }

    @Test func emptyAndCommentOnlyInputsGiveNothing() {
        #expect(SQLStatementSplitter.split("").isEmpty)
        #expect(SQLStatementSplitter.split("  -- nothing\n/* here */ ;").isEmpty)
        #expect(SQLStatementSplitter.split("SELECT 1") == ["SELECT 1"])
    }
}
