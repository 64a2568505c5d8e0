import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import RelayModel
@testable import RelayHTTP

@Suite("405 for a route's path with a method it does not take")
struct MethodNotAllowedTests {
    @Test func anUndeclaredMethodOnARoutesPathIs405WithAllow() async throws {
        try await RouterHarness.application().test(.router) { client in
            let admin = RouterHarness.bearer(MemoryTokens.token(for: .admin))
            for (method, path, allow) in [(HTTPRequest.Method.trace, "/v1/items", "GET"), (.delete, "/v1/items/E1", "GET"),
                                          (.get, "/v1/deliveries/1/retry", "POST"), (.patch, "/v1/items/import", "POST")] {
                try await client.execute(uri: path, method: method, headers: admin) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allow, "\(method) \(path)")
                    #expect(RouterHarness.errorMessage(response) == "\(method.rawValue) is not allowed on this route")
                }
            }
        }
    }

    @Test func anUnknownPathStays404AndSoDoesAHandlersOwn() async throws {
        try await RouterHarness.application().test(.router) { client in
            let admin = RouterHarness.bearer(MemoryTokens.token(for: .admin))
            for path in ["/v1/nothing", "/v1/items/E1/reconcile/more", "/"] {
                try await client.execute(uri: path, method: .trace, headers: admin) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(RouterHarness.errorMessage(response) == "no such route")
                }
            }
            try await client.execute(uri: "/v1/items/NOPE", method: .get, headers: admin) { response in
                #expect(response.status == .notFound, "a missing item is the handler's 404, not the router's")
                #expect(RouterHarness.errorMessage(response) != "no such route")
            }
        }
    }

    @Test func pathsMatchAsTheRouterMatchesThem() {
        let routes = RouteMethods()
        routes.set([(path: "/v1/items/{id}", method: .get), (path: "/v1/items/{id}/reconcile", method: .post),
                    (path: "/v1/items/import", method: .post), (path: "/console/assets/**", method: .get)])
        #expect(routes.methods(for: "/v1/items/E1") == [.get])
        #expect(routes.methods(for: "/v1/items/import") == [.post], "a literal segment wins over a capture, as in the router")
        #expect(routes.methods(for: "//v1//items/E1/") == [.get], "empty segments are not segments")
        #expect(routes.methods(for: "/v1/items/E1/reconcile") == [.post])
        #expect(routes.methods(for: "/console/assets/a/b.css") == [.get])
        #expect(routes.methods(for: "/v1/items").isEmpty)
        #expect(routes.methods(for: "").isEmpty)
    }
}
