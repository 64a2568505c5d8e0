import AsyncHTTPClient
import Synchronization

/// HTTP clients that connect each host to the address the relay vetted, never to what a
/// second DNS lookup would say (DNS rebinding): AsyncHTTPClient's `dnsOverride` sends the
/// connection to the vetted address while the Host header and TLS SNI keep the name. One
/// client per host keeps its connections; when a host's vetted addresses no longer include
/// the pinned one, a new client takes over and the old one is shut down once its requests
/// have had time to finish. At most `capacity` hosts are kept, the least recently used go.
final class PinnedHTTPClients: Sendable {
    private struct Entry {
        let address: String
        let client: HTTPClient
        var lastUsed: ContinuousClock.Instant
    }

    private struct State {
        var byHost: [String: Entry] = [:]
        var retired: [HTTPClient] = []
        var closed = false
    }

    private let configuration: HTTPClient.Configuration
    private let retireAfter: Duration
    private let capacity: Int
    private let state = Mutex(State())

    init(configuration: HTTPClient.Configuration, retireAfter: Duration, capacity: Int = 512) {
        self.configuration = configuration
        self.retireAfter = retireAfter
        self.capacity = max(1, capacity)
    }

    /// The client for `host`, connecting to `pinned` (or to the address it already uses, when
    /// that one is still among `vetted`); nil once shut down.
    func client(host: String, vetted: [String], pinned: String) -> HTTPClient? {
        let now = ContinuousClock.now
        let (client, retiring) = state.withLock { state -> (HTTPClient?, [HTTPClient]) in
            guard !state.closed else { return (nil, []) }
            if var entry = state.byHost[host], vetted.contains(entry.address) {
                entry.lastUsed = now
                state.byHost[host] = entry
                return (entry.client, [])
            }
            var retiring: [HTTPClient] = []
            if let old = state.byHost[host] { retiring.append(old.client) }
            if state.byHost[host] == nil, state.byHost.count >= capacity,
               let oldest = state.byHost.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                state.byHost[oldest.key] = nil
                retiring.append(oldest.value.client)
            }
            var configuration = self.configuration
            configuration.dnsOverride = [host: pinned]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.byHost[host] = Entry(address: pinned, client: client, lastUsed: now)
            state.retired += retiring
            return (client, retiring)
        }
        for old in retiring { retire(old) }
        return client
    }

    private func retire(_ client: HTTPClient) {
        let wait = retireAfter
        Task {
            try? await Task.sleep(for: wait)
            let mine = self.state.withLock { state -> Bool in
                guard let index = state.retired.firstIndex(where: { $0 === client }) else { return false }
                state.retired.remove(at: index)
                return true
            }
            if mine { try? await client.shutdown() }
        }
    }

    /// Shuts every client down (at process shutdown).
    func shutdown() async {
        let all = state.withLock { state -> [HTTPClient] in
            state.closed = true
            defer {
                state.byHost = [:]
                state.retired = []
            }
            return state.byHost.values.map(\.client) + state.retired
        }
        for client in all { try? await client.shutdown() }
    }
}
