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
        var index = 0
        var hasContent = false

        func flush() {
            let text = String(current).trimmingWhitespace()
            if hasContent, !text.isEmpty { statements.append(text) }
            current = String.UnicodeScalarView()
            hasContent = false
        }
        func copy(_ from: Int, _ to: Int) {
            current.append(contentsOf: chars[from..<min(to, chars.count)])
        }

        while index < chars.count {
            let c = chars[index]
            let next: Unicode.Scalar? = index + 1 < chars.count ? chars[index + 1] : nil
            switch c {
            case "-" where next == "-":
                let end = chars[index...].firstIndex(of: "\n") ?? chars.count
                copy(index, end)
                index = end
            case "/" where next == "*":
                var depth = 0
                var cursor = index
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
                copy(index, cursor)
                index = cursor
            case "'", "\"":
                let escapes = c == "'" && index > 0 && (chars[index - 1] == "E" || chars[index - 1] == "e")
                    && (index < 2 || !isIdentifierScalar(chars[index - 2]))
                var cursor = index + 1
                while cursor < chars.count {
                    if escapes, chars[cursor] == "\\" { cursor += 2; continue }
                    if chars[cursor] == c {
                        if cursor + 1 < chars.count, chars[cursor + 1] == c { cursor += 2; continue }
                        break
                    }
                    cursor += 1
                }
                copy(index, cursor + 1)
                hasContent = true
                index = cursor + 1
            case "$":
                if let tagEnd = dollarTagEnd(chars, from: index), index == 0 || !isIdentifierScalar(chars[index - 1]) {
                    let tag = Array(chars[index...tagEnd])
                    var cursor = tagEnd + 1
                    var closed = chars.count
                    while cursor + tag.count <= chars.count {
                        if Array(chars[cursor..<cursor + tag.count]) == tag { closed = cursor + tag.count; break }
                        cursor += 1
                    }
                    copy(index, closed)
                    hasContent = true
                    index = closed
                } else {
                    current.append(c); hasContent = true; index += 1
                }
            case ";":
                flush()
                index += 1
            default:
                current.append(c)
                if !c.properties.isWhitespace { hasContent = true }
                index += 1
            }
        }
        flush()
        return statements.filter { !isOnlyComments($0) }
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
