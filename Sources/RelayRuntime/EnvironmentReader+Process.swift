public import Foundation
public import RelayCore

extension EnvironmentReader {
    /// Settings of this process: its environment, and secret files read from disk.
    public static func process(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> EnvironmentReader {
        EnvironmentReader(environment: environment) { path in try String(contentsOfFile: path, encoding: .utf8) }
    }
}
