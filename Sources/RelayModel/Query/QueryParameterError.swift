/// A query parameter (or a form field, or a CLI flag with the same name) that cannot be
/// used; the message is for the caller and names it.
public struct QueryParameterError: Error, Equatable, CustomStringConvertible, Sendable {
    public var parameter: String
    public var message: String

    public init(_ parameter: String, _ message: String) {
        self.parameter = parameter
        self.message = message
    }

    public var description: String { "parameter \"\(parameter)\": \(message)" }
}
