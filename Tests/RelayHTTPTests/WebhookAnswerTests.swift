import RelayModel
import Foundation
import Testing
@testable import RelayHTTP

@Suite("The receiver's answer")
struct WebhookAnswerTests {
    @Test(arguments: [IngestResult(id: 1, duplicate: false), IngestResult(id: .max, duplicate: true),
                      IngestResult(id: 9_007_199_254_740_993, duplicate: false)])
    func writtenDirectlyEqualsWhatTheEncoderWrites(result: IngestResult) throws {
        let accepted = APIWebhookAccepted(result)
        #expect(accepted.json == (try APIJSON.text(accepted)))
    }
}
