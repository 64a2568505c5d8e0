import Foundation
import Hummingbird
import Logging
import RelayModel

/// `/v1/silences`: silences made, listed and expired early. Reading needs what reading
/// deliveries needs; making and ending one, what retrying them needs (operators and admins).
/// Every silence is kept: who made it and why, who expired it.
public struct SilencesAPIController: Sendable {
    let silences: any SilenceStoring
    /// The rule names of the rules file in force, when one is set: a silence must name one of them.
    let ruleNames: (@Sendable () -> Set<String>)?

    public init(silences: any SilenceStoring, ruleNames: (@Sendable () -> Set<String>)? = nil) {
        self.silences = silences
        self.ruleNames = ruleNames
    }

    static let bodyFields: Set<String> = ["rule", "matchers", "reason", "starts_at", "expires_at", "duration"]

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "silences", needs: .readDeliveries, use: list)
        v1.on(.post, "silences", needs: .retryDeliveries, use: create)
        v1.on(.get, "silences/{id}", needs: .readDeliveries, use: show)
        v1.on(.delete, "silences/{id}", needs: .retryDeliveries, use: expire)
        v1.on(.post, "silences/{id}/expire", needs: .retryDeliveries, use: expire)
    }

    /// `?active=true`: only those in force or to come. Newest first, at most 500.
    @Sendable func list(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let activeOnly = try request.query { pairs throws(QueryParameterError) -> Bool in
            let query = try QueryParameters(pairs, allowed: ["active"])
            return try query.choice("active", in: ["true", "false"]) == "true"
        }
        let found = try await silences.list(activeOnly: activeOnly, limit: 500)
        return try JSONResponse.make(APISilenceList(silences: found.map { APISilence($0) }))
    }

    /// Body: `reason`, `expires_at` or `duration`, and `rule` and/or `matchers`; `starts_at`
    /// optional. 201 with the silence.
    @Sendable func create(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONRequestBody.object(request, maxBytes: 16_384, fields: Self.bodyFields)
        let silence = try await silences.create(try Self.draft(body, knownRules: ruleNames?()), author: "token \(caller.name)")
        context.logger.notice("api: silence made", metadata: ["silence_id": "\(silence.id)", "by": "\(caller.name)"])
        return try JSONResponse.make(APISilence(silence), status: .created)
    }

    /// A request body as a checked draft; 400 naming the field otherwise.
    static func draft(_ body: [String: JSONValue], knownRules: Set<String>? = nil, now: Date = Date()) throws -> SilenceDraft {
        func date(_ key: String) throws -> Date? {
            guard let text = try JSONRequestBody.string(body, key) else { return nil }
            guard let date = dateTime(text) else {
                throw APIError(.badRequest, "field \"\(key)\": must be a date-time with seconds and a zone, like 2026-11-01T08:30:00Z")
            }
            return date
        }
        do {
            let matchers: SilenceMatchers
            switch body["matchers"] {
            case nil, .null?: matchers = SilenceMatchers()
            case .object(let fields)?: matchers = try SilenceMatchers.parse(fields)
            default: throw APIError(.badRequest, "field \"matchers\": must be an object of fields, each a string or a list of strings")
            }
            let draft = try SilenceDraft.make(rule: try JSONRequestBody.string(body, "rule"), matchers: matchers,
                                              reason: try JSONRequestBody.string(body, "reason"), startsAt: try date("starts_at"),
                                              expiresAt: try date("expires_at"), duration: try JSONRequestBody.string(body, "duration"), now: now)
            if let knownRules { try draft.requireKnownRule(in: knownRules) }
            return draft
        } catch let error as SilenceDraft.Invalid {
            let field = bodyFields.contains(error.field) ? error.field : "matchers.\(error.field)"
            throw APIError(.badRequest, "field \"\(field.prefix(80))\": \(error.reason)")
        }
    }

    /// A date-time as the OpenAPI document's `date-time` format (RFC 3339) has it: date, `T`,
    /// time with seconds, and `Z` or an offset; a bare date or epoch seconds, which other routes
    /// take, are refused here, where the document promises the format.
    static func dateTime(_ text: String) -> Date? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 20, scalars.count <= 40, "Tt".unicodeScalars.contains(scalars[10]), scalars[13] == ":", scalars[16] == ":",
              let last = scalars.last, "Zz".unicodeScalars.contains(last) || scalars[scalars.count - 3] == ":" else { return nil }
        return ISODate.parse(text.uppercased()).flatMap { text == text.trimmingCharacters(in: .whitespaces) ? $0 : nil }
    }

    @Sendable func show(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let id = try Self.id(context)
        guard let silence = try await silences.silence(id: id) else { throw APIError(.notFound, "silence \(id) does not exist") }
        return try JSONResponse.make(APISilence(silence))
    }

    /// Ends it now: 200 with the silence; 404 when there is none; 409 when it had already ended.
    @Sendable func expire(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try Self.id(context)
        guard let (silence, ended) = try await silences.expire(id: id, by: "token \(caller.name)") else {
            throw APIError(.notFound, "silence \(id) does not exist")
        }
        guard ended else { throw APIError(.conflict, "silence \(id) had already ended") }
        context.logger.notice("api: silence expired", metadata: ["silence_id": "\(id)", "by": "\(caller.name)"])
        return try JSONResponse.make(APISilence(silence))
    }

    static func id(_ context: RelayRequestContext) throws -> Int64 {
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0 else { throw APIError(.badRequest, "parameter \"id\": must be a silence ID (a positive whole number)") }
        return id
    }
}
