import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import RelayHTTP

/// The body deadline on a connection's event loop (virtual time): from a request's head to
/// its end, re-armed for every request of a kept connection, never left behind.
@Suite("Request body deadline")
struct RequestBodyDeadlineTests {
    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "relay", path: "/webhooks/entrupy"))

    func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(RequestBodyDeadlineHandler(limit: .seconds(10)))
        return channel
    }

    @Test func aBodyThatStopsArrivingEndsWithATimeoutAtTheLimit() throws {
        let channel = try channel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{")))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try channel.throwIfErrorCaught()
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "\"")))  // a drip does not restart it
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(throws: RequestBodyTimeout.self) { try channel.throwIfErrorCaught() }
        // Every part still reaches the reader, in order, before the error.
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.head)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .body(ByteBuffer(string: "{")))
        _ = try channel.finish()
    }

    @Test func aCompleteBodyLeavesNoTimerAndEachRequestGetsItsOwn() throws {
        let channel = try channel()
        for _ in 0..<3 {
            try channel.writeInbound(Self.head)
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{}")))
            channel.embeddedEventLoop.advanceTime(by: .seconds(6))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            channel.embeddedEventLoop.advanceTime(by: .seconds(60))
            try channel.throwIfErrorCaught()
        }
        _ = try channel.finish()
    }

    @Test func aClosedConnectionCancelsItsTimer() throws {
        let channel = try channel()
        try channel.writeInbound(Self.head)
        channel.pipeline.fireChannelInactive()  // the peer went away; the handler stays in place
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        try channel.throwIfErrorCaught()
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    @Test func theTimeoutIsA408ThatNamesTheLimit() {
        let timeout = RequestBodyTimeout(limit: .seconds(10))
        #expect(timeout.status == .requestTimeout)
        #expect(timeout.description == "the request body did not arrive within 10 s")
    }
}
