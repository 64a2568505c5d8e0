import HTTPTypes
import Hummingbird
import RelayModel

extension RouterGroup where Context == RelayRequestContext {
    /// Adds a route that needs `permission`: each route states what it needs where it is declared.
    @discardableResult
    func on(_ method: HTTPRequest.Method, _ path: RouterPath, needs permission: Permission,
            use handler: @escaping @Sendable (Request, RelayRequestContext) async throws -> Response) -> Self {
        group().add(middleware: RequirePermission(permission: permission)).on(path, method: method, use: handler)
        return self
    }
}
