import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import RelayModel
@testable import RelayHTTP

/// The query routes on in-memory stores, behind the same error middleware as in service.
enum RouterHarness {
    static func application(failureLimit: Int = 10, items: MemoryItems = MemoryItems(),
                            tokenConcurrency: Int = 8, targetTests: MemoryTargetTests = MemoryTargetTests()) -> some ApplicationProtocol {
        let router = Router(context: RelayRequestContext.self)
        router.add(middleware: JSONErrorMiddleware<RelayRequestContext>())
        let routeMethods = RouteMethods()
        router.add(middleware: MethodNotAllowedMiddleware<RelayRequestContext>(routes: routeMethods))
        let auth = BearerAuthenticator(
            tokens: MemoryTokens(), addressResolver: ClientAddressResolver(trustedProxies: []),
            limiter: FailedAttemptLimiter(limit: failureLimit, window: .seconds(60)))
        var routes = QueryRoutes(auth: auth, sessions: MemorySessions(), items: items, deliveries: MemoryDeliveries(),
                                 events: MemoryEvents(), sdkUsers: MemorySDKUsers(), api: nil, sessionLifetime: .seconds(3600),
                                 secureCookies: false, tokenConcurrency: tokenConcurrency, changes: MemoryChanges(),
                                 targets: MemoryTargets())
        routes.targetTests = targetTests
        routes.add(to: router)
        routeMethods.set(from: router)
        return Application(router: router)
    }

    static func bearer(_ token: String) -> HTTPFields {
        [.authorization: "Bearer \(token)"]
    }

    static func json(_ response: TestResponse) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
    }

    static func errorMessage(_ response: TestResponse) -> String? {
        (json(response)?["error"] as? [String: Any])?["message"] as? String
    }
}
