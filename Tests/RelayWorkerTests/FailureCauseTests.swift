import Foundation
import RelayModel
import RelayNotify
import RelayWorker
import Testing

/// Issue 42, finding 2: whose fault a failed attempt is. Only what says the target is unwell
/// counts against its breaker; what concerns one message fails that delivery alone.
@Suite("Failure causes")
struct FailureCauseTests {
    @Test func callbackStatusesBlameTheEndpointOnlyWhenTheySayItIsUnwellOrMisaddressed() {
        for status in [500, 502, 503, 504, 599, 429, 408, 401, 403, 404, 405, 301, 302, 307] {
            #expect(FailureCause.ofCallbackStatus(status) == .target, "\(status)")
        }
        for status in [400, 409, 410, 413, 415, 422, 451, 499] {
            #expect(FailureCause.ofCallbackStatus(status) == .delivery, "\(status)")
        }
        let refused = CallbackDeliverer.report(for: CallbackResponse(status: 422, retryAfter: nil, excerpt: "bad item"))
        #expect(refused.result == .transient && refused.cause == .delivery)
        let gone = CallbackDeliverer.report(for: CallbackResponse(status: 410, retryAfter: nil, excerpt: ""))
        #expect(gone.result == .permanent && gone.cause == .delivery)
        let limited = CallbackDeliverer.report(for: CallbackResponse(status: 429, retryAfter: .seconds(3), excerpt: ""))
        #expect(limited.result == .transient && limited.cause == .target && limited.retryAfter == .seconds(3))
    }

    @Test func callbackErrorsBlameTheEndpointUnlessTheRelayRefusedToSend() {
        #expect(CallbackDeliverer.cause(of: .transport("connection refused")) == .target)
        #expect(CallbackDeliverer.cause(of: .timeout(seconds: 10)) == .target)
        #expect(CallbackDeliverer.cause(of: .unresolvable(host: "h", reason: "NXDOMAIN")) == .target)
        #expect(CallbackDeliverer.cause(of: .invalidURL("x")) == .delivery)
        #expect(CallbackDeliverer.cause(of: .refusedAddress(host: "h", address: "10.0.0.1", scope: "private")) == .delivery)
    }

    @Test func smtpRecipientAndContentRefusalsAreTheMessagesEverythingElseTheServers() {
        func rejected(_ command: String, _ code: Int) -> SMTPError { .rejected(command: command, reply: SMTPReply(code: code, lines: ["x"])) }
        // One recipient: a full mailbox (452/552), unknown (550), deferred (451).
        for code in [450, 451, 452, 550, 552, 553] {
            #expect(EmailDeliverer.cause(of: rejected("RCPT TO:<a@example.com>", code)) == .delivery, "\(code)")
        }
        // 421 is the server closing, whatever the command.
        #expect(EmailDeliverer.cause(of: rejected("RCPT TO:<a@example.com>", 421)) == .target)
        // The content refused for good at the end of DATA: the message's; a 4xx there: the server's.
        #expect(EmailDeliverer.cause(of: rejected(SMTPClient.endOfData, 554)) == .delivery)
        #expect(EmailDeliverer.cause(of: rejected(SMTPClient.endOfData, 451)) == .target)
        // The envelope and the session: the server's.
        for command in ["MAIL FROM:<relay@example.com>", "DATA", "EHLO relay", "AUTH PLAIN", "connect", "STARTTLS"] {
            #expect(EmailDeliverer.cause(of: rejected(command, 451)) == .target, "\(command)")
            #expect(EmailDeliverer.cause(of: rejected(command, 550)) == .target, "\(command)")
        }
        #expect(EmailDeliverer.cause(of: .connection("refused")) == .target)
        #expect(EmailDeliverer.cause(of: .timeout(waitingFor: "the greeting")) == .target)
        #expect(EmailDeliverer.cause(of: .unsupported("no STARTTLS")) == .target)
    }

    @Test func unlessGivenTransientFailuresAreTheTargetsAndPermanentOnesTheDeliverys() {
        #expect(AttemptReport(result: .transient).cause == .target)
        #expect(AttemptReport(result: .permanent).cause == .delivery)
        #expect(AttemptReport(result: .permanent, cause: .target).cause == .target)
    }
}
