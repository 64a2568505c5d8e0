import AsyncHTTPClient
import Foundation
import RelayModel
import Testing

/// Issue 45: in v2 (the relay's default) Entrupy answers an item's images "only when asked"
/// (`include_images=true`), and the simulator plays it so: an item's photos reach the API and
/// the console only because the relay asks for them. The simulator serves the photos itself,
/// from its own address, which the local run's image policy lets the console show.
@Suite("v2 photos and the local run's images", .timeLimit(.minutes(3)))
struct V2PhotosTests {
    @Test func v2PhotosReachTheAPIAndConsoleBecauseTheRelayAsksForThem() async throws {
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            try await TestSimulator.with(webhookURL: "http://127.0.0.1:\(port)/webhooks/entrupy") { sim async throws in
                let env = ReconcileStack.fastEnv.merging([
                    "ENTRUPY_RELAY_ENTRUPY_API_VERSION": "2", "ENTRUPY_RELAY_CONSOLE_IMAGE_SOURCES": "https://*.entrupy.com, " + sim.baseURL,
                ]) { _, new in new }
                try await TestRelay.with(database: db, env: env, simulator: sim, port: port) { relay async throws in
                    let (status, created) = try await sim.call(.POST, "/_sim/items", .object([
                        "customer_item_id": .string("sku-photos"), "photos": .number(JSONNumber(3)),
                        "result": .string("authentic"), "final": .bool(true),
                    ]))
                    let id = try #require(created["entrupy_id"]?.stringValue, "\(status)")
                    #expect(try await eventually(timeout: .seconds(15)) {
                        try await relay.count("SELECT count(*) FROM items WHERE entrupy_id = '\(id)' AND result = 'authentic'") == 1
                    })
                    try await Self.expectTheSimulatorOmitsImagesUnlessAsked(sim, id: id)

                    // The API: three photos, served by the simulator; the v2 certificate's ID.
                    let support = try await APIAccess.token(db, role: .support)
                    let details = try #require(try await relay.get("/v1/items/\(id)", token: support).json?["details"] as? [String: Any])
                    let photos = details["photos"] as? [[String: Any]] ?? []
                    #expect(photos.count == 3, "the relay did not ask for images: \(details)")
                    let thumbnail = try #require(photos.first?["thumbnail"] as? String)
                    #expect(thumbnail.hasPrefix(sim.baseURL + "/_sim/media/items/\(id)/photos/"))
                    #expect(details["certificate_id"] as? String == "cert_\(id)")

                    // The photo is a real image, and the console's page shows it under a policy that allows it.
                    var request = HTTPClientRequest(url: thumbnail)
                    request.method = .GET
                    let image = try await sim.http.execute(request, timeout: .seconds(10))
                    let bytes = Array(try await image.body.collect(upTo: 1 << 20).readableBytesView)
                    #expect(image.status.code == 200 && image.headers.first(name: "Content-Type") == "image/png")
                    #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 100)
                    let cookie = try await ConsoleSignIn.session(relay, token: support)
                    let page = try await relay.request("/console/items/\(id)", headers: [("Cookie", cookie)])
                    #expect(page.status == 200 && page.body.contains(thumbnail) && page.body.contains("ID cert_\(id)"))
                    #expect(page.header("Content-Security-Policy")?.contains("img-src https://*.entrupy.com \(sim.baseURL);") == true)
                    // The header's links have colours of their own on the dark bar, visited too.
                    let style = try await relay.request("/console/style.css")
                    #expect(style.body.contains("header a,header a:visited{color:"))

                    // `entrupy check` fetches an item as reconciles do and sees its images.
                    let doctor = try await CommandLineTests.run(["entrupy", "check"], env: CommandLineTests.environment(db, [
                        "ENTRUPY_RELAY_ENTRUPY_API_URL": sim.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                        "ENTRUPY_RELAY_ENTRUPY_API_VERSION": "2", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
                    ]))
                    #expect(doctor.stdout.contains("ok       images          GET /v2/authentications/{id} (include_images=true) answers images"),
                            "\(doctor.stdout)")
                }
            }
        }
    }

    /// The simulator's own v2 answer: no `images` without `include_images=true`, catalog data
    /// only with `include_catalog=true`.
    static func expectTheSimulatorOmitsImagesUnlessAsked(_ sim: TestSimulator, id: String) async throws {
        let token = [("Authorization", "Token \(TestSimulator.token)")]
        let plain = try await sim.call(.GET, "/v2/authentications/\(id)", headers: token).1
        #expect(plain[path: "item.entrupy_id"]?.stringValue == id && plain[path: "item.images"] == nil && plain[path: "item.catalog"] == nil)
        let asked = try await sim.call(.GET, "/v2/authentications/\(id)?include_images=true&include_catalog=true", headers: token).1
        #expect(asked[path: "item.images.uploaded_images"]?.arrayValue?.count == 3 && asked[path: "item.catalog"] != nil)
    }
}
