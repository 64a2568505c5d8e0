import Foundation
import RelayModel
import Testing

/// Issue 27, 4: SDK authorize with the worst a consumer or Entrupy can send. At c765048 a
/// name holding U+0000 passed validation, Entrupy signed, then PostgreSQL refused the row
/// (22021) and the client's retries went on for ever; and Entrupy's own error text reached
/// the caller.
@Suite("SDK authorize with hostile input", .timeLimit(.minutes(3)))
struct SDKAuthorizeHostileTests {
    @Test func aNULInANameIsCleanedBeforeEntrupyAndTheDatabase() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            let body = #"{"sdk_authorization_request": "req-nul", "unique_user_id": "user-nul-01", "email": "ada\u0000@example.com", "first_name": "A\u0000da", "last_name": "\u0000"}"#
            let first = try await stack.relay.post("/v1/sdk/authorize", token: consumer, json: body)
            #expect(first.status == 200, "\(first.body)")
            #expect(first.json?["conflict"] as? Bool == false)
            #expect(try await stack.count("""
                SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-nul-01' AND first_name = 'A' || chr(65533) || 'da'
                  AND last_name = chr(65533) AND email = 'ada' || chr(65533) || '@example.com'
                """) == 1)
            // The same call again is the same user to Entrupy (it saw the cleaned text both times): no conflict.
            let again = try await stack.relay.post("/v1/sdk/authorize", token: consumer, json: body)
            #expect(again.status == 200 && again.json?["conflict"] as? Bool == false, "\(again.body)")
            #expect(try await stack.count("SELECT authorizations FROM sdk_users WHERE unique_user_id = 'user-nul-01'") == 2)
        }
    }

    @Test func entrupysErrorTextStaysInTheLog() async throws {
        try await HostileHTTPPeer.with { peer async throws in
            try await TestDatabase.with { db async throws in
                let env = ["ENTRUPY_RELAY_ENTRUPY_API_URL": peer.url("/refuse"), "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "t"]
                try await TestRelay.with(database: db, env: env, worker: false) { relay async throws in
                    let consumer = try await APIAccess.token(db, role: .consumer)
                    let answer = try await relay.post("/v1/sdk/authorize", token: consumer, json: """
                        {"sdk_authorization_request": "req-1", "unique_user_id": "user-refused", "email": "a@example.com"}
                        """)
                    #expect(answer.status == 400, "\(answer.body)")
                    #expect(answer.message?.hasPrefix("Entrupy refused the request as invalid") == true, "\(answer.body)")
                    #expect(!answer.body.contains("INTERNAL-DETAIL") && !answer.body.contains("10.0.0.5"), "\(answer.body)")
                    #expect(peer.counts.count("/refuse/v2/integrations/authorize-user") == 1)
                }
            }
        }
    }
}
