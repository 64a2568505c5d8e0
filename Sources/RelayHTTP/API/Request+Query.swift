import Hummingbird
import RelayModel

extension Request {
    /// The query string's pairs, fully decoded; a malformed one is a 400 naming it.
    func queryPairs() throws -> [(String, String)] {
        do {
            return try FormURLEncoding.decode(uri.query ?? "")
        } catch {
            throw APIError(.badRequest, error.description)
        }
    }
}

extension Request {
    /// The query string read by `parse`; any problem is a 400 naming the parameter.
    func query<T>(_ parse: ([(String, String)]) throws(QueryParameterError) -> T) throws -> T {
        let pairs = try queryPairs()
        do {
            return try parse(pairs)
        } catch {
            throw error.apiError
        }
    }
}

extension QueryParameterError {
    /// The 400 answer naming the parameter.
    var apiError: APIError { APIError(.badRequest, description) }
}
