import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import RelayHTTP

/// Issue 27, 10: c765048 let console pages load images from any origin (`img-src https: http:`),
/// so a photo URL in item data could track support staff or fire same-site GETs.
@Suite("The console's content policy")
struct ConsolePolicyTests {
    @Test func imagesLoadOnlyFromEntrupysHosts() async throws {
        try await RouterHarness.application().test(.router) { client in
            let response = try await client.execute(uri: "/console/login", method: .get)
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("img-src https://*.entrupy.com;"), "\(policy)")
            #expect(!policy.contains("https:;") && !policy.contains("http:"), "\(policy)")
        }
    }

    @Test func theImageSourcesSettingIsChecked() throws {
        #expect(try HTTPSettings.imageSources("https://photos.example.com, https://*.cdn.example.com:8443")
            == ["https://photos.example.com", "https://*.cdn.example.com:8443"])
        #expect(try HTTPSettings.imageSources("none") == [])
        for hostile in ["http://photos.example.com", "https:", "*", "https://x.example.com; script-src *", "https://x.example.com/path",
                        "'unsafe-inline'", "https://x.example.com:99999x"] {
            #expect(throws: (any Error).self, "\(hostile)") { try HTTPSettings.imageSources(hostile) }
        }
    }
}
