import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A fast callback endpoint for the notify benchmark: answers 204 to every POST and, on
/// SIGTERM, writes `webhook-id,received_epoch_ms` for each request to `--out`.
struct CallbackSinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sink", abstract: "Receive callbacks and record when each arrived.")

    @Option(help: "Port on 127.0.0.1.") var port = 8098
    @Option(help: "CSV file written on exit.") var out: String

    final class Arrivals: Sendable {
        let rows = Mutex<[(String, Int64)]>([])
        func add(_ id: String) {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            rows.withLock { $0.append((id, now)) }
        }
    }

    func run() async throws {
        var logger = Logger(label: "sink")
        logger.logLevel = .warning
        let arrivals = Arrivals()
        let router = Router()
        router.post("/**") { request, _ -> HTTPResponse.Status in
            arrivals.add(request.headers[.init("webhook-id")!] ?? "-")
            return .noContent
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        let text = arrivals.rows.withLock { rows in rows.map { "\($0.0),\($0.1)\n" }.joined() }
        try text.write(toFile: out, atomically: true, encoding: .utf8)
    }
}
