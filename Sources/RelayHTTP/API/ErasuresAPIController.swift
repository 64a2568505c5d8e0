import Foundation
import Hummingbird
import Logging
import RelayModel

/// `/v1/erasures`: erase a person's data (admin), with a dry run that counts first, and the
/// record of every erasure that ran.
public struct ErasuresAPIController: Sendable {
    let erasures: any ErasureStoring

    public init(erasures: any ErasureStoring) {
        self.erasures = erasures
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "erasures", needs: .erasePeople, use: list)
        v1.on(.post, "erasures", needs: .erasePeople, use: erase)
    }

    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let records = try await erasures.list(limit: 100)
        return try JSONResponse.make(["erasures": records.map(APIErasure.init)])
    }

    /// Body: exactly one of `unique_user_id`, `email`, `username`, `customer_item_id` (strings), and
    /// optionally `dry_run` (a boolean). 200 with the counts for a dry run, 201 for a run.
    @Sendable func erase(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONRequestBody.object(request, maxBytes: 4_096, fields: ["unique_user_id", "email", "username", "customer_item_id", "dry_run"])
        try JSONRequestBody.refuseNulls(body)
        func text(_ key: String) throws -> String? { try JSONRequestBody.string(body, key) }
        let dryRun = try JSONRequestBody.dryRun(body)
        let selector: ErasureSelector
        do {
            selector = try ErasureSelector.parse(uniqueUserID: try text("unique_user_id"), email: try text("email"),
                                                 username: try text("username"), customerItemID: try text("customer_item_id"))
        } catch let error as ErasureSelector.Invalid {
            throw APIError(.badRequest, error.description)
        }
        let report = try await erasures.erase(selector, requestedBy: "token \(caller.name)", dryRun: dryRun)
        if !dryRun {
            context.logger.notice("api: erasure", metadata: ["erasure_id": "\(report.id ?? 0)", "key": "\(selector.kind)", "by": "\(caller.name)",
                                                            "rows": "\(report.total)", "outcome": "\(report.outcome.rawValue)"])
        }
        return try JSONResponse.make(APIErasure(report: report, selector: selector.kind, requestedBy: "token \(caller.name)"),
                                     status: dryRun ? .ok : .created)
    }
}
