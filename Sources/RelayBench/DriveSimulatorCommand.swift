import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RelayModel

/// Has the simulator finalise items at a steady rate (each one sends a webhook to the relay):
/// one `POST /_sim/drive`, which the simulator paces by its own clock. A request per item from
/// this process cost about 1 ms of CPU per webhook (this process's and the simulator's) on
/// the cores the relay is measured on.
struct DriveSimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drive", abstract: "Have the simulator create items at a fixed rate.")

    @Option(help: "Simulator base URL.") var simulator = "http://127.0.0.1:8090"
    @Option(help: "Items per second.") var rate = 200
    @Option(help: "Seconds to run.") var seconds = 15

    func run() async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let run = UUID().uuidString.prefix(8)
            var request = HTTPClientRequest(url: simulator + "/_sim/drive")
            request.method = .POST
            let body: JSONValue = .object([
                "rate": .number(JSONNumber(rate)), "seconds": .number(JSONNumber(seconds)), "prefix": .string("drive-\(run)-"),
                "item": .object(["brand": .string("nike"), "result": .string("authentic"), "final": .bool(true)]),
            ])
            request.body = .bytes(ByteBuffer(string: body.jsonText))
            let response = try await http.execute(request, timeout: .seconds(Int64(seconds) + 60))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let answer = try? JSONValue.parse(Array(bytes.readableBytesView))
            guard response.status == .created, case .number(let created)? = answer?["created"] else {
                throw ValidationError("the simulator refused the drive (\(response.status.code)): \(String(buffer: bytes))")
            }
            let behind = answer?["behind_ms_max"]?.scalarText ?? "?"
            print("drive: created \(created) items at \(rate)/s (the simulator was at most \(behind) ms behind schedule)")
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}
