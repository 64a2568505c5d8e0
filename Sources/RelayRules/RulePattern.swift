import Foundation

/// A regular expression from the rules file, searched for anywhere in the value (anchor it
/// with `^` and `$` to match the whole value).
public struct RulePattern: Sendable, CustomStringConvertible {
    public let source: String
    // NSRegularExpression is immutable once made, and Sendable.
    let expression: NSRegularExpression

    public init(_ source: String) throws {
        self.source = source
        self.expression = try NSRegularExpression(pattern: source)
    }

    public func matches(_ value: String) -> Bool {
        expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }

    public var description: String { source }
}
