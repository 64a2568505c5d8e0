import EntrupyAPI
import Foundation
import Hummingbird
import HTTPTypes
import Logging
import RelayCore
import RelayStore

/// `POST /v1/sdk/authorize`, for the organisation's app backend: validate per the contract,
/// have Entrupy sign the SDK's authorization request, remember the user's Entrupy username
/// (support staff search by it), and answer the signed request.
public struct SDKAuthorizeController: Sendable {
    static let fields: Set<String> = ["sdk_authorization_request", "unique_user_id", "email", "first_name", "last_name"]
    static let maxBodyBytes = 64 * 1024

    /// Nil when `ENTRUPY_API_TOKEN` is not set: the route answers 503 saying so.
    let api: EntrupyAPIClient?
    let users: any SDKUserStore

    public init(api: EntrupyAPIClient?, users: any SDKUserStore) {
        self.api = api
        self.users = users
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.post, "sdk/authorize", needs: .authorizeSDKUsers, use: authorize)
    }

    @Sendable func authorize(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let input = try await Self.parse(request)
        if let problem = input.validationError() {
            throw APIError(.badRequest, "field \"\(problem.field)\": \(problem.message)")
        }
        guard let api else {
            throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay (ENTRUPY_API_TOKEN)")
        }
        if let wait = await api.rateLimitedFor() { throw Self.rateLimited(wait) }
        let result: AuthorizeUserResult
        do {
            result = try await api.authorizeUser(input)
        } catch let error as EntrupyAPIError {
            context.logger.warning("sdk authorize: Entrupy refused or failed", metadata: ["error": "\(error)"])
            throw Self.answer(for: error)
        }
        do {
            try await users.record(SDKUserRecord(uniqueUserID: input.uniqueUserID, username: result.username, email: input.email,
                                                 firstName: input.firstName, lastName: input.lastName, conflict: result.conflict))
        } catch {
            // Entrupy signed, but without the username stored support could not find the user's items: ask for a retry.
            context.logger.error("sdk authorize: user not recorded", metadata: ["error": "\(StoreError.describe(error))"])
            throw APIError(.serviceUnavailable, "the user could not be recorded; retry later", headers: [.retryAfter: "5"])
        }
        context.logger.info("sdk user authorized", metadata: [
            "unique_user_id": "\(input.uniqueUserID)", "username": "\(result.username)", "conflict": "\(result.conflict)",
            "by": "\(caller.name)",
        ])
        return try JSONResponse.make(APISDKAuthorization(
            signedAuthorizationRequest: result.signedAuthorizationRequest, username: result.username, conflict: result.conflict))
    }

    static func parse(_ request: Request) async throws -> AuthorizeUserRequest {
        let object = try await JSONRequestBody.object(request, maxBytes: maxBodyBytes, fields: fields)
        func text(_ name: String, required: Bool) throws -> String? {
            switch object[name] {
            case nil, .null?:
                if required { throw APIError(.badRequest, "field \"\(name)\": is required") }
                return nil
            case .string(let value)?: return value
            default: throw APIError(.badRequest, "field \"\(name)\": must be a string")
            }
        }
        return AuthorizeUserRequest(
            sdkAuthorizationRequest: try text("sdk_authorization_request", required: true) ?? "",
            uniqueUserID: try text("unique_user_id", required: true) ?? "",
            email: try text("email", required: true) ?? "",
            firstName: try text("first_name", required: false), lastName: try text("last_name", required: false))
    }

    static func answer(for error: EntrupyAPIError) -> APIError {
        switch error {
        case .rateLimited(let after): rateLimited(after ?? .seconds(1))
        case .rejected(400, let message):
            APIError(.badRequest, "Entrupy refused the request: \(message.prefix(300))")
        case .unauthorized: APIError(.badGateway, "Entrupy refused this relay's API token")
        case .transport: APIError(.badGateway, "Entrupy did not answer; retry later")
        case .budgetUnavailable: APIError(.serviceUnavailable, "the relay cannot reach its database to pace Entrupy calls; retry later",
                                          headers: [.retryAfter: "5"])
        default: APIError(.badGateway, "Entrupy could not authorize the user (\(error))")
        }
    }

    static func rateLimited(_ wait: Duration) -> APIError {
        let seconds = wait.retryAfterSeconds
        return APIError(.tooManyRequests, "Entrupy is rate limiting this relay; retry after \(seconds) s",
                        headers: [.retryAfter: String(seconds)])
    }
}
