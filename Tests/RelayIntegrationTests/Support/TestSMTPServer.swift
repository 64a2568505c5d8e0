import Foundation
import RelayModel

/// aiosmtpd on a loopback port, storing each message it accepts as a JSON file.
struct TestSMTPServer: Sendable {
    enum TLS: String, Sendable { case none, starttls, implicit }

    struct Mail: Sendable {
        let from: String
        let recipients: [String]
        let data: String
        let tls: Bool
        let authenticated: Bool
        /// The client's port: one per connection.
        let peerPort: Int?
        /// RCPT arrived in the same write as MAIL FROM (the client pipelined).
        let pipelined: Bool

        /// Header lines of the message (unfolded), and its body.
        var headers: [(name: String, value: String)] {
            let head = data.components(separatedBy: "\r\n\r\n").first ?? ""
            var result: [(String, String)] = []
            for line in head.components(separatedBy: "\r\n") {
                if line.hasPrefix(" ") || line.hasPrefix("\t"), let last = result.popLast() {
                    result.append((last.0, last.1 + line))
                } else if let colon = line.firstIndex(of: ":") {
                    result.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
                }
            }
            return result
        }

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    let port: Int
    let store: URL

    static let user = "relay"
    static let password = "s3cret pass"

    /// Runs a server during `body`. `port` lets a test start it where a relay already points.
    static func with<T: Sendable>(tls: TLS = .none, auth: Bool = false, mechanisms: [String]? = nil, pipelining: Bool = true,
                                  port: Int? = nil,
                                  certificate: TestCertificate.Files? = nil,
                                  _ body: @escaping @Sendable (TestSMTPServer) async throws -> T) async throws -> T {
        var chosen = port
        if chosen == nil { chosen = try await freePort() }
        let port = chosen ?? 0
        let store = try TestServerProcess.temporaryDirectory("mail")
        var arguments = ["--port", String(port), "--store", store.path, "--tls", tls.rawValue]
        if tls != .none {
            var files = certificate
            if files == nil { files = try await TestCertificate.make() }
            guard let files else { throw TestSetupError("no certificate") }
            arguments += ["--cert", files.certificate, "--key", files.key]
        }
        if auth { arguments += ["--auth", "\(user):\(password)"] }
        if let mechanisms { arguments += ["--mechanisms", mechanisms.joined(separator: ",")] }
        if !pipelining { arguments.append("--no-pipelining") }
        return try await TestServerProcess.run("smtp_sink.py", arguments, folder: store) {
            try await body(TestSMTPServer(port: port, store: store))
        }
    }

    func messages() throws -> [Mail] {
        let names = try FileManager.default.contentsOfDirectory(atPath: store.path).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        return try names.map { name in
            let json = try JSONValue.parse(Array(try Data(contentsOf: store.appendingPathComponent(name))))
            return Mail(from: json["mail_from"]?.stringValue ?? "", recipients: json["rcpt_tos"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                        data: json["data"]?.stringValue ?? "", tls: json["tls"]?.boolValue ?? false,
                        authenticated: json["authenticated"]?.boolValue ?? false,
                        peerPort: json["peer_port"]?.doubleValue.map { Int($0) }, pipelined: json["pipelined"]?.boolValue ?? false)
        }
    }

    /// Waits until `count` messages have arrived.
    func waitForMessages(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [Mail] {
        _ = try await eventually(timeout: timeout) { try messages().count >= count }
        return try messages()
    }
}
