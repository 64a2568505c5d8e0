import Foundation
import Hummingbird
import Logging
import RelayModel

/// `/v1/targets`: each callback endpoint's (`TargetKey`) and the SMTP server's health, shared by every
/// replica, with its held backlog; and an operator's disable and enable.
public struct TargetsAPIController: Sendable {
    let targets: any TargetQueries

    public init(targets: any TargetQueries) {
        self.targets = targets
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "targets", needs: .readDeliveries, use: list)
        v1.on(.post, "targets/{id}/enable", needs: .retryDeliveries, use: enable)
        v1.on(.post, "targets/{id}/disable", needs: .retryDeliveries, use: disable)
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        _ = try request.query { pairs throws(QueryParameterError) in try QueryParameters(pairs, allowed: []) }
        return try JSONResponse.make(APITargetList(targets: try await targets.list().map(APITarget.init)))
    }

    @Sendable func enable(_ request: Request, context: RelayRequestContext) async throws -> Response {
        try await set(request, context: context, enabled: true)
    }

    @Sendable func disable(_ request: Request, context: RelayRequestContext) async throws -> Response {
        try await set(request, context: context, enabled: false)
    }

    func set(_ request: Request, context: RelayRequestContext, enabled: Bool) async throws -> Response {
        let caller = try context.requireCaller()
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0 else {
            throw APIError(.badRequest, "parameter \"id\": must be a target ID (a positive whole number, from GET /v1/targets)")
        }
        guard let health = try await targets.set(String(id), enabled: enabled, by: "token \(caller.name)") else {
            throw APIError(.notFound, "target \(id) does not exist")
        }
        context.logger.info("api: target \(enabled ? "enabled" : "disabled")", metadata: ["target": "\(health.key)", "by": "\(caller.name)"])
        let summary = try await targets.list().first { $0.health.id == id } ?? TargetSummary(health: health, held: 0, oldestHeldSince: nil)
        return try JSONResponse.make(APITarget(summary))
    }
}

/// `GET /v1/targets`'s body.
struct APITargetList: Encodable, Sendable {
    let targets: [APITarget]
}
