import Foundation

/// Splits a migration file into single statements. postgres-nio speaks only the extended
/// query protocol, which takes one statement at a time, so a file of several statements
/// must be cut at its top-level semicolons. Quotes, quoted identifiers, dollar-quoted
/// bodies (`$$ ... $$`, `$fn$ ... $fn$`), `E'...'` escapes and both comment styles are
/// respected, so a semicolon inside any of them never splits.
public enum SQLStatementSplitter {
    public static func split(_ sql: String) -> [String] {
        let chars = Array(sql.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var hasContent = false

        func flush() {
            let text = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
            if hasContent, !text.isEmpty { statements.append(text) }
            current = String.UnicodeScalarView()
            hasContent = false
        }

        var index = 0
        while index < chars.count {
            if chars[index] == ";" {
                flush()
                index += 1
                continue
            }
            let token = nextToken(chars, at: index)
            current.append(contentsOf: chars[index..<min(token.end, chars.count)])
            if token.isContent { hasContent = true }
            index = token.end
        }
        flush()
        return statements.filter { !isOnlyComments($0) }
    }

    /// The token that starts at `index`: the index just past it, and whether it makes a
    /// statement worth keeping (comments and whitespace alone do not).
    static func nextToken(_ chars: [Unicode.Scalar], at index: Int) -> (end: Int, isContent: Bool) {
        let c = chars[index]
        let next: Unicode.Scalar? = index + 1 < chars.count ? chars[index + 1] : nil
        switch c {
        case "-" where next == "-":
            return (chars[index...].firstIndex(of: "\n") ?? chars.count, false)
        case "/" where next == "*":
            return (blockCommentEnd(chars, from: index), false)
        case "'", "\"":
            return (quotedEnd(chars, from: index), true)
        case "$":
            return (dollarQuotedEnd(chars, from: index) ?? index + 1, true)
        default:
            return (index + 1, !c.properties.isWhitespace)
        }
    }

    /// Past the `*/` that closes the `/*` at `start`, counting nested comments.
    static func blockCommentEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int {
        var depth = 0
        var cursor = start
        while cursor < chars.count {
            if chars[cursor] == "/", cursor + 1 < chars.count, chars[cursor + 1] == "*" {
                depth += 1; cursor += 2
            } else if chars[cursor] == "*", cursor + 1 < chars.count, chars[cursor + 1] == "/" {
                depth -= 1; cursor += 2
                if depth == 0 { break }
            } else {
                cursor += 1
            }
        }
        return cursor
    }

    /// Past the quote that closes the `'` or `"` at `start`: a doubled quote stays inside,
    /// and so does a backslash-escaped one in an `E'...'` string.
    static func quotedEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int {
        let quote = chars[start]
        let escapes = quote == "'" && start > 0 && (chars[start - 1] == "E" || chars[start - 1] == "e")
            && (start < 2 || !isIdentifierScalar(chars[start - 2]))
        var cursor = start + 1
        while cursor < chars.count {
            if escapes, chars[cursor] == "\\" { cursor += 2; continue }
            if chars[cursor] == quote {
                if cursor + 1 < chars.count, chars[cursor + 1] == quote { cursor += 2; continue }
                break
            }
            cursor += 1
        }
        return cursor + 1
    }

    /// Past the closing tag of the dollar-quoted body at `start`, or nil when the `$` there
    /// opens no tag (a positional parameter, or part of an identifier).
    static func dollarQuotedEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        guard let tagEnd = dollarTagEnd(chars, from: start), start == 0 || !isIdentifierScalar(chars[start - 1]) else {
            return nil
        }
        let tag = Array(chars[start...tagEnd])
        var cursor = tagEnd + 1
        while cursor + tag.count <= chars.count {
            if Array(chars[cursor..<cursor + tag.count]) == tag { return cursor + tag.count }
            cursor += 1
        }
        return chars.count
    }

    /// `$tag$` starting at `start`: returns the index of the closing `$` of the tag.
    static func dollarTagEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        var cursor = start + 1
        while cursor < chars.count {
            let c = chars[cursor]
            if c == "$" { return cursor }
            guard isIdentifierScalar(c), !(cursor == start + 1 && ("0"..."9").contains(c)) else { return nil }
            cursor += 1
        }
        return nil
    }

    static func isIdentifierScalar(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c)
    }

    static func isOnlyComments(_ statement: String) -> Bool {
        var rest = Substring(statement)
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else {
                return rest.isEmpty
            }
        }
    }
}
