/// A statement written with named parameters (`:entrupy_id`), numbered `$1`, `$2`, … in the
/// order they first appear, so a reader sees each value's name where it is used and nobody
/// works out `$27` by arithmetic. A name used twice is one parameter. Casts (`::text`),
/// quoted text and identifiers, and comments are left as they are. Not understood, and so not
/// to be written in a named statement: an array slice with a named bound (`a[1:n]`), a
/// backslash escape inside `E'…'`, dollar-quoted bodies, and nested block comments.
public struct NamedSQL: Sendable, Equatable {
    /// The statement as PostgreSQL takes it, with `$n` parameters.
    public let text: String
    /// The parameters' names: `names[0]` is `$1`.
    public let names: [String]

    public init(_ template: String) {
        let scalars = Array(template.unicodeScalars)
        var out = String.UnicodeScalarView()
        var names: [String] = []
        var index = 0
        func copy(until end: Int) {
            out.append(contentsOf: scalars[index..<min(end, scalars.count)])
            index = min(end, scalars.count)
        }
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }
        while index < scalars.count {
            let c = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch c {
            case "'", "\"":
                // To the closing quote; a doubled quote inside is part of the text.
                var end = index + 1
                while end < scalars.count {
                    if scalars[end] == c {
                        if end + 1 < scalars.count, scalars[end + 1] == c { end += 2; continue }
                        break
                    }
                    end += 1
                }
                copy(until: end + 1)
            case "-" where next == "-":
                copy(until: scalars[index...].firstIndex(of: "\n") ?? scalars.count)
            case "/" where next == "*":
                var end = index + 2
                while end + 1 < scalars.count, !(scalars[end] == "*" && scalars[end + 1] == "/") { end += 1 }
                copy(until: end + 2)
            case ":" where next == ":":
                copy(until: index + 2)
            case ":" where next.map(isNameStart) == true:
                var end = index + 1
                while end < scalars.count, isName(scalars[end]) { end += 1 }
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                let number: Int
                if let known = names.firstIndex(of: name) {
                    number = known + 1
                } else {
                    names.append(name)
                    number = names.count
                }
                out.append(contentsOf: "$\(number)".unicodeScalars)
                index = end
            default:
                out.append(c)
                index += 1
            }
        }
        self.text = String(out)
        self.names = names
    }
}
