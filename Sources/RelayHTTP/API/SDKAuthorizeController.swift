public import EntrupyAPI
import Foundation
import Hummingbird
import HTTPTypes
import Logging
import RelayModel
import RelayRuntime

/// `POST /v1/sdk/authorize`, for the organisation's app backend: validate per the contract,
/// have Entrupy sign the SDK's authorization request, remember the user's Entrupy username
/// (support staff search by it), and answer the signed request.
public struct SDKAuthorizeController: Sendable {
    static let fields: Set<String> = ["sdk_authorization_request", "unique_user_id", "email", "first_name", "last_name"]
    static let maxBodyBytes = 64 * 1024

    /// Nil when `ENTRUPY_RELAY_ENTRUPY_API_TOKEN` is not set: the route answers 503 saying so.
    let api: EntrupyAPIClient?
    let users: any SDKUserStore
    /// Calls per token per minute, across every replica (nil: unlimited).
    let rate: (any CallerRate)?

    public init(api: EntrupyAPIClient?, users: any SDKUserStore, rate: (any CallerRate)? = nil) {
        self.api = api
        self.users = users
        self.rate = rate
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
            throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay (ENTRUPY_RELAY_ENTRUPY_API_TOKEN)")
        }
        // One token's share first: a single consumer cannot spend the organisation's Entrupy budget.
        if let rate {
            let wait: Duration?
            do {
                wait = try await rate.take(tokenID: caller.tokenID)
            } catch {
                context.logger.warning("sdk authorize: the token's rate could not be counted", metadata: ["error": "\(String(reflecting: error))"])
                throw APIError(.serviceUnavailable, "the relay cannot reach its database; retry later", headers: [.retryAfter: "5"])
            }
            if let wait {
                let seconds = wait.retryAfterSeconds
                throw APIError(.tooManyRequests, "token \"\(caller.name)\" made too many SDK authorizations this minute; retry after \(seconds) s",
                               headers: [.retryAfter: String(seconds)])
            }
        }
        if let wait = await api.rateLimitedFor() { throw Self.rateLimited(wait) }
        let result: AuthorizeUserResult
        do {
            result = try await api.authorizeUser(input)
        } catch let error as EntrupyAPIError {
            // Entrupy's own words go to the log only: the caller gets ours.
            context.logger.warning("sdk authorize: Entrupy refused or failed", metadata: ["error": "\(error)"])
            throw Self.answer(for: error)
        }
        let username: String?
        do {
            if let named = result.username {
                try await users.record(SDKUserRecord(uniqueUserID: input.uniqueUserID, username: named, email: input.email,
                                                     firstName: input.firstName, lastName: input.lastName, conflict: result.conflict))
                username = named
            } else {
                // Entrupy's 409 may leave the username out: the signed request is still valid, so
                // the caller gets it with the username the relay stored (none on a first sight).
                username = try await users.recordConflict(uniqueUserID: input.uniqueUserID)
                if username == nil {
                    // The user can log in, but which Entrupy username their submissions carry is
                    // unknown until a later 200 names it: say so, rather than fail a valid login.
                    MetricHandles.counter(.sdkUsersWithoutUsername).increment()
                    context.logger.warning("sdk authorize: Entrupy answered 409 without a username for a user the relay never stored")
                }
            }
        } catch {
            // Entrupy signed, but without the username stored support could not find the user's items: ask for a retry.
            context.logger.error("sdk authorize: user not recorded", metadata: ["error": "\(StoreFailure.describe(error))"])
            throw APIError(.serviceUnavailable, "the user could not be recorded; retry later", headers: [.retryAfter: "5"])
        }
        // Who the user is stays out of the log: personal data, and the row in sdk_users says it.
        context.logger.info("sdk user authorized", metadata: ["conflict": "\(result.conflict)", "by": "\(caller.name)"])
        return try JSONResponse.make(APISDKAuthorization(
            signedAuthorizationRequest: result.signedAuthorizationRequest, username: username, conflict: result.conflict))
    }

    static func parse(_ request: Request) async throws -> AuthorizeUserRequest {
        let object = try await JSONRequestBody.object(request, maxBytes: maxBodyBytes, fields: fields)
        func text(_ name: String, required: Bool) throws -> String? {
            let value = try JSONRequestBody.string(object, name)
            if value == nil, required { throw APIError(.badRequest, "field \"\(name)\": is required") }
            return value
        }
        // Stored text like every other: U+0000 becomes U+FFFD before Entrupy or the database sees it
        // (PostgreSQL refuses it, and a refusal after Entrupy signed made the client retry for ever).
        return AuthorizeUserRequest(
            sdkAuthorizationRequest: try text("sdk_authorization_request", required: true) ?? "",
            uniqueUserID: try text("unique_user_id", required: true) ?? "",
            email: StoredText.clean(try text("email", required: true) ?? ""),
            firstName: StoredText.clean(try text("first_name", required: false)),
            lastName: StoredText.clean(try text("last_name", required: false)))
    }

    static func answer(for error: EntrupyAPIError) -> APIError {
        switch error {
        case .rateLimited(let after): rateLimited(after ?? .seconds(1))
        case .rejected(400, _):
            APIError(.badRequest, "Entrupy refused the request as invalid; check sdk_authorization_request and the user's fields")
        case .unauthorized: APIError(.badGateway, "Entrupy refused this relay's API token")
        case .transport: APIError(.badGateway, "Entrupy did not answer; retry later")
        case .budgetUnavailable: APIError(.serviceUnavailable, "the relay cannot reach its database to pace Entrupy calls; retry later",
                                          headers: [.retryAfter: "5"])
        default: APIError(.badGateway, "Entrupy could not authorize the user; retry later")
        }
    }

    static func rateLimited(_ wait: Duration) -> APIError {
        let seconds = wait.retryAfterSeconds
        return APIError(.tooManyRequests, "Entrupy is rate limiting this relay; retry after \(seconds) s",
                        headers: [.retryAfter: String(seconds)])
    }
}
