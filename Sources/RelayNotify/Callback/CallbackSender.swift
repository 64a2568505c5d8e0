import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RelayCore

/// Sends signed callbacks. Redirects are not followed (a 3xx is reported as such), the whole
/// exchange is bounded by `timeout`, and targets that resolve to loopback, private or
/// link-local addresses are refused unless `allowPrivate`.
public struct CallbackSender: Sendable {
    let http: HTTPClient
    let timeout: Duration
    let allowPrivate: Bool
    static let excerptBytes = 512

    public init(http: HTTPClient, timeout: Duration, allowPrivate: Bool) {
        self.http = http
        self.timeout = timeout
        self.allowPrivate = allowPrivate
    }

    /// An HTTP client for callbacks: no redirects, short connect timeout, and as many kept
    /// connections per host as attempts may be in flight to one target (fewer would queue
    /// requests inside the client, where no deadline of ours applies).
    public static func makeHTTPClient(timeout: Duration, connectionsPerHost: Int) -> HTTPClient {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: TimeAmount(timeout))
        )
        config.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connectionsPerHost))
        config.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    public func send(_ request: CallbackRequest, now: Date = Date()) async throws(CallbackError) -> CallbackResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw .invalidURL(request.url)
        }
        if !allowPrivate { try await checkAddress(host: host) }

        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = .POST
        outgoing.headers.add(name: "Content-Type", value: "application/json")
        outgoing.headers.add(name: "User-Agent", value: "entrupy-relay")
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        for header in request.signatureHeaders(timestamp: Int64(now.timeIntervalSince1970)) {
            outgoing.headers.replaceOrAdd(name: header.name, value: header.value)
        }
        outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        do {
            let response = try await http.execute(outgoing, timeout: TimeAmount(timeout))
            var excerpt: [UInt8] = []
            for try await var chunk in response.body {
                excerpt += chunk.readBytes(length: min(chunk.readableBytes, Self.excerptBytes - excerpt.count)) ?? []
                if excerpt.count >= Self.excerptBytes { break }
            }
            let status = Int(response.status.code)
            let retryAfter = status == 429 || status == 503
                ? RetryAfter.parse(response.headers.first(name: "Retry-After"), now: now, maximum: .seconds(86_400)) : nil
            return CallbackResponse(status: status, retryAfter: retryAfter,
                                    excerpt: String(decoding: excerpt, as: UTF8.self), location: response.headers.first(name: "Location"))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timeout(seconds: Int(timeout.components.seconds))
        } catch {
            throw .transport("\(error)")
        }
    }

    /// Every address the host resolves to must be public: one private answer is enough to refuse.
    func checkAddress(host: String) async throws(CallbackError) {
        let addresses: [IPAddress]
        do {
            addresses = try await HostResolver.resolve(host)
        } catch let error as CallbackError {
            throw error
        } catch {
            throw .unresolvable(host: host, reason: "\(error)")
        }
        guard !addresses.isEmpty else { throw .unresolvable(host: host, reason: "no addresses") }
        for address in addresses {
            if let scope = address.restrictedScope {
                throw .refusedAddress(host: host, address: address.description, scope: scope)
            }
        }
    }
}
