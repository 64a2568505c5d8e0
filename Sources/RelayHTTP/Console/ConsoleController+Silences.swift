import Foundation
import Hummingbird
import Logging
import RelayModel

extension ConsoleController {
    static let silenceNotices = [
        "silence-made": "The silence is in force: matching deliveries are recorded silenced and not sent.",
        "silence-expired": "The silence is expired: new deliveries are sent again (what it silenced stays silenced until retried).",
        "silence-already-ended": "The silence had already ended: nothing changed.",
    ]

    @Sendable func silencesPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let session = try Self.signedIn(context)
        guard let silences else { throw APIError(.serviceUnavailable, "silences are not available here") }
        let done = try request.queryPairs().first { $0.0 == "done" }?.1
        let view = ConsoleViews.silences(try await silences.list(activeOnly: false, limit: 200), session: session,
                                         notice: done.flatMap { Self.silenceNotices[$0] })
        return render("silences", view)
    }

    /// A silence from the form; the page again, with the problem and the form as filled, when
    /// something is wrong.
    @Sendable func createSilence(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        guard let silences else { throw APIError(.serviceUnavailable, "silences are not available here") }
        let draft: SilenceDraft
        switch Self.silenceDraft(form, knownRules: silenceRuleNames?()) {
        case .success(let made): draft = made
        case .failure(let error):
            let view = ConsoleViews.silences(try await silences.list(activeOnly: false, limit: 200), session: session, form: form,
                                             problem: "\(error.field): \(error.reason)")
            return render("silences", view, status: .badRequest)
        }
        let silence = try await silences.create(draft, author: "console \(session.caller.name)")
        context.logger.notice("console: silence made", metadata: ["silence_id": "\(silence.id)", "by": "\(session.caller.name)"])
        return Self.redirect("/console/silences?done=silence-made")
    }

    /// The form's fields as a draft: each matcher field a comma-separated list.
    static func silenceDraft(_ form: [String: String], knownRules: Set<String>? = nil) -> Result<SilenceDraft, SilenceDraft.Invalid> {
        Result { () throws(SilenceDraft.Invalid) -> SilenceDraft in
            var matchers = SilenceMatchers()
            for field in SilenceMatchers.fields {
                let values = (form[field] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                if !values.isEmpty { try matchers.set(field, values) }
            }
            let rule = form["rule"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            let draft = try SilenceDraft.make(rule: rule, matchers: matchers, reason: form["reason"], startsAt: nil, expiresAt: nil,
                                              duration: form["duration"] ?? "", now: Date())
            if let knownRules { try draft.requireKnownRule(in: knownRules) }
            return draft
        }
    }

    @Sendable func expireSilence(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        guard let silences else { throw APIError(.serviceUnavailable, "silences are not available here") }
        guard let id = Int64(try context.parameters.require("id")), id > 0,
              let (_, ended) = try await silences.expire(id: id, by: "console \(session.caller.name)") else {
            throw APIError(.notFound, "no such silence")
        }
        // As the API's 409: a silence that had ended (expired, or past its end) is left as it was.
        guard ended else { return Self.redirect("/console/silences?done=silence-already-ended") }
        context.logger.notice("console: silence expired", metadata: ["silence_id": "\(id)", "by": "\(session.caller.name)"])
        return Self.redirect("/console/silences?done=silence-expired")
    }
}
