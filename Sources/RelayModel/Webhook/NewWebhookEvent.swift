import Foundation

/// A verified webhook about to be stored: the exact bytes plus what was read from them.
public struct NewWebhookEvent: Sendable {
    public var body: [UInt8]
    public var parsed: ParsedWebhook
    public var verifiedBy: SignatureScheme
    /// The relevant request headers, lowercase names.
    public var headers: [String: String]
    public var clientAddress: String?
    public var requestID: String?
    /// The trace context of its receipt (W3C `traceparent`), carried by its reconcile job; nil while tracing is off.
    public var traceParent: String?

    public init(body: [UInt8], parsed: ParsedWebhook, verifiedBy: SignatureScheme, headers: [String: String], clientAddress: String?, requestID: String?,
                traceParent: String? = nil) {
        self.body = body
        self.parsed = parsed
        self.verifiedBy = verifiedBy
        self.headers = headers
        self.clientAddress = clientAddress
        self.requestID = requestID
        self.traceParent = traceParent
    }

    /// Headers as a JSON object text for the `jsonb` column.
    public var headersJSON: String {
        JSONValue.object(headers.mapValues(JSONValue.string)).jsonText
    }
}
