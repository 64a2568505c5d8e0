public import RelayModel
public import RelayRuntime

extension EntrupyAPIClient {
    /// What Entrupy answered a flag it accepted: its status and body (`null` when empty).
    public struct FlagAnswer: Sendable, Equatable {
        public var status: Int
        public var body: JSONValue
    }

    /// The flag route's path as configured (for messages that name it).
    public var flagRoute: String { configuration.routes.flag }

    /// v2's "Flag an authentication": `POST` the route table's `flag` path with `reason` and
    /// `comments` (null when none), no `Api-Version` (a v2 operation in either version). A 404
    /// (`notFound`) says Entrupy does not know the item there, or the route is not where we read
    /// it; a 410 is `routeGone`. Refusals come back as `EntrupyAPIError.rejected`.
    public func flag(entrupyID: String, reason: String, comments: String?, priority: APIPriority = .interactive) async throws -> FlagAnswer {
        let body: JSONValue = .object(["reason": .string(reason), "comments": comments.map(JSONValue.string) ?? .null])
        let path = configuration.routes.flagPath(entrupyID)
        let (status, json) = try await exchange(.POST, path, route: "flag", priority: priority, body: body,
                                                accept: [200, 201, 202, 204], apiVersion: nil)
        return FlagAnswer(status: status, body: json)
    }
}
