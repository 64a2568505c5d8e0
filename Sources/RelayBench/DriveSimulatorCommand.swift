import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RelayCore

/// Creates items in the simulator at a steady rate (each one sends a webhook to the relay).
struct DriveSimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drive", abstract: "Create simulator items at a fixed rate.")

    @Option(help: "Simulator base URL.") var simulator = "http://127.0.0.1:8090"
    @Option(help: "Items per second.") var rate = 200
    @Option(help: "Seconds to run.") var seconds = 15

    func run() async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let total = rate * seconds
        let interval = Duration.seconds(1) / rate
        let start = ContinuousClock.now
        let run = UUID().uuidString.prefix(8)
        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<total {
                try await Task.sleep(until: start + interval * n, clock: .continuous)
                group.addTask {
                    var request = HTTPClientRequest(url: simulator + "/_sim/items")
                    request.method = .POST
                    let body: JSONValue = .object(["customer_item_id": .string("drive-\(run)-\(n)"), "brand": .string("nike"),
                                                   "result": .string("authentic"), "final": .bool(true)])
                    request.body = .bytes(ByteBuffer(string: body.jsonText))
                    guard let response = try? await http.execute(request, timeout: .seconds(10)) else { return false }
                    // Read the answer to its end, as every other client here does: a body left
                    // unread can cost AsyncHTTPClient the connection.
                    _ = try? await response.body.collect(upTo: 1 << 20)
                    return response.status == .created
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 0 : 1) }
        }
        try await http.shutdown()
        print("drive: created \(total - failures) items at \(rate)/s (\(failures) failed)")
    }
}
