public import Hummingbird
public import HTTPTypes
import Synchronization

/// Answers 405 with an `Allow` header, where the router answers 404, to a request whose path is
/// a route's but whose method none of that path's routes take (TRACE /v1/items). Only the
/// router's own "no such route" is turned; a handler's 404 (no such item) stays. The routes
/// are given once they are all added (`RouteMethods.set`), since middleware comes first.
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteMethods

    public init(routes: RouteMethods) {
        self.routes = routes
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var headers = HTTPFields()
            headers[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            throw APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on this route", headers: headers)
        }
    }
}

/// The methods each route path takes, matched as the router matches a path (`:id` one segment,
/// `**` the rest).
public final class RouteMethods: Sendable {
    private let table = Mutex<[(path: [String], methods: Set<HTTPRequest.Method>)]>([])

    public init() {}

    /// Takes the router's routes, once all are added.
    public func set<RouteContext>(from router: Router<RouteContext>) {
        set(router.routes.map { (path: $0.path.description, method: $0.method) })
    }

    /// Takes routes as paths (`/v1/items/{id}`) and methods.
    public func set(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        var byPath: [[String]: Set<HTTPRequest.Method>] = [:]
        for route in routes {
            byPath[route.path.split(separator: "/").map(String.init), default: []].insert(route.method)
        }
        table.withLock { $0 = byPath.map { (path: $0.key, methods: $0.value) } }
    }

    /// The methods the route this path resolves to takes (empty: no route has this path). As
    /// in the router, a literal segment wins over a capture: `/v1/items/import` is the import
    /// route's path, not the item route's.
    public func methods(for path: String) -> Set<HTTPRequest.Method> {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return table.withLock { table in
            let matching = table.filter { Self.matches($0.path, segments) }
            let best = matching.max { Self.literals($0.path).lexicographicallyPrecedes(Self.literals($1.path)) { !$0 && $1 } }
            return best?.methods ?? []
        }
    }

    /// Which of a pattern's segments are literal (1) rather than captures or wildcards (0).
    static func literals(_ pattern: [String]) -> [Bool] {
        pattern.map { !($0.contains("{") || $0.contains("*") || $0.hasPrefix(":")) }
    }

    static func matches(_ pattern: [String], _ segments: [Substring]) -> Bool {
        for (index, element) in pattern.enumerated() {
            if element == "**" { return true }
            guard index < segments.count else { return false }
            // A capture (`{id}`, `{name}.jpg`) or a wildcard (`*`, `*.jpg`): any one segment.
            if !literals([element])[0] { continue }
            if element != segments[index] { return false }
        }
        return pattern.count == segments.count
    }
}
