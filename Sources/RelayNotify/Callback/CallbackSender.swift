import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import RelayModel
import RelayRuntime

/// Sends callbacks, signed when the request has a secret (a chat preset's target may have none).
/// Redirects are not followed (a 3xx is reported as such) and the
/// whole exchange is bounded by `timeout`. Unless private callbacks are allowed, the target's
/// host is resolved once, every address it resolves to must be global unicast, and the
/// connection goes to a vetted address (`PinnedHTTPClients`): a second lookup by the HTTP
/// client, which DNS rebinding would answer differently, never happens.
public struct CallbackSender: Sendable {
    /// For IP-literal targets, and for every target when private callbacks are allowed.
    let http: HTTPClient
    let pinned: PinnedHTTPClients
    let timeout: Duration
    let allowPrivate: Bool
    /// Why an address is refused (nil: allowed). Tests replace it to treat loopback as public.
    let refusal: @Sendable (IPAddress) -> String?
    let resolve: @Sendable (String) async throws -> [IPAddress]
    static let excerptBytes = 512

    /// - Parameter connectionsPerHost: as many kept connections per host as attempts may be in
    ///   flight to one target (fewer would queue requests inside the client, where no deadline
    ///   of ours applies).
    public init(timeout: Duration, connectionsPerHost: Int, allowPrivate: Bool) {
        self.init(timeout: timeout, connectionsPerHost: connectionsPerHost, allowPrivate: allowPrivate,
                  refusal: { $0.restrictedScope }, resolve: { try await HostResolver.resolve($0) })
    }

    init(timeout: Duration, connectionsPerHost: Int, allowPrivate: Bool,
         refusal: @escaping @Sendable (IPAddress) -> String?, resolve: @escaping @Sendable (String) async throws -> [IPAddress]) {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: TimeAmount(timeout))
        )
        config.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connectionsPerHost))
        config.decompression = .disabled
        // No client spans here: AsyncHTTPClient's would export the whole URL, whose path may be a
        // secret. The deliver handler's attempt span (masked target) is the callback's, and its
        // traceparent goes out as a header (`CallbackDeliverer`).
        config.tracing.tracer = nil
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
        pinned = PinnedHTTPClients(configuration: config, retireAfter: timeout + .seconds(5))
        self.timeout = timeout
        self.allowPrivate = allowPrivate
        self.refusal = refusal
        self.resolve = resolve
    }

    /// Closes every connection (at shutdown).
    public func shutdown() async {
        await pinned.shutdown()
        try? await http.shutdown()
    }

    /// - Parameter keeping: response headers to return (lowercased names), for a test send to
    ///   show; deliveries keep none.
    public func send(_ request: CallbackRequest, now: Date = Date(), keeping: [String] = []) async throws(CallbackError) -> CallbackResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw .invalidURL(request.url)
        }
        let client = try await client(for: host)

        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = .POST
        outgoing.headers.add(name: "Content-Type", value: "application/json")
        outgoing.headers.add(name: "User-Agent", value: "entrupy-relay")
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        for header in request.signatureHeaders(timestamp: Int64(now.timeIntervalSince1970)) {
            outgoing.headers.replaceOrAdd(name: header.name, value: header.value)
        }
        outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        let started = ContinuousClock.now
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(timeout))
            // The status decides; the body is only read for an excerpt, and only for what is left
            // of the timeout, so a target that drips its body cannot hold the attempt.
            let excerpt = ExcerptBuffer(limit: Self.excerptBytes)
            let body = response.body
            _ = try? await withDeadline(max(.milliseconds(1), timeout - (ContinuousClock.now - started))) {
                for try await chunk in body where excerpt.append(chunk) { break }
            }
            let status = Int(response.status.code)
            let retryAfter = status == 429 || status == 503
                ? RetryAfter.parse(response.headers.first(name: "Retry-After"), now: now, maximum: .seconds(86_400)) : nil
            var kept: [String: String] = [:]
            for name in keeping { if let value = response.headers.first(name: name) { kept[name] = String(value.prefix(512)) } }
            return CallbackResponse(status: status, retryAfter: retryAfter,
                                    excerpt: String(decoding: excerpt.bytes, as: UTF8.self), headers: kept)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timeout(seconds: Int(timeout.components.seconds))
        } catch {
            throw .transport("\(error)")
        }
    }

    /// The client to send with: the shared one for an IP literal (vetted as it is) or when
    /// private callbacks are allowed; else one pinned to an address the host resolved to,
    /// after every address it resolved to passed (one refused answer refuses the target).
    func client(for host: String) async throws(CallbackError) -> HTTPClient {
        if allowPrivate { return http }
        if let literal = IPAddress(host) {
            if let scope = refusal(literal) { throw .refusedAddress(host: host, address: literal.description, scope: scope) }
            return http
        }
        let addresses: [IPAddress]
        do {
            addresses = try await resolve(host)
        } catch let error as CallbackError {
            throw error
        } catch {
            throw .unresolvable(host: host, reason: "\(error)")
        }
        guard !addresses.isEmpty else { throw .unresolvable(host: host, reason: "no addresses") }
        for address in addresses {
            if let scope = refusal(address) {
                throw .refusedAddress(host: host, address: address.description, scope: scope)
            }
        }
        // IPv4 first: a host with both is reached the way most clients would.
        let preferred = addresses.first(where: \.isIPv4) ?? addresses[0]
        guard let client = pinned.client(host: host, vetted: addresses.map(\.description), pinned: preferred.description) else {
            throw .transport("the relay is shutting down")
        }
        return client
    }
}
