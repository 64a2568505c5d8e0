import Foundation
import RelayApp
import RelayModel
import RelayRuntime
import Testing

/// Issue 44: the files the project ships (deploy/, docs/, the README) agree with the relay: every
/// `ENTRUPY_RELAY_` name is a setting, the example rules load with only the variables they
/// document, the paths the docs name are the package's, and the OpenAPI document is the release's.
@Suite("Shipped files agree", .timeLimit(.minutes(3)))
struct ShippedFilesTests {
    static let root = TestServerProcess.root

    /// `ENTRUPY_RELAY_` names in shipped files that are not settings, each with its reason.
    static let notSettings: [String: String] = [
        "ENTRUPY_RELAY_PROT": "the configuration page's example of a misspelt name, which stops start-up naming ENTRUPY_RELAY_PORT",
    ]

    /// Text files under deploy/, docs/*.md and README.md, by path from the repository's root.
    static func shippedTexts() throws -> [(path: String, text: String)] {
        var paths = ["README.md"]
        for folder in ["deploy", "docs"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                guard !["png", "jpg", "gz", "bin"].contains(url.pathExtension) else { continue }
                paths.append(folder + "/" + url.path.dropFirst(base.path.count + 1))
            }
        }
        return paths.sorted().compactMap { path in
            (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
        }
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    @Test func everyPrefixedNameInTheShippedFilesIsASetting() throws {
        let catalog = RelaySettings.catalog
        let known = Set(catalog.flatMap { [$0.environmentName] + ($0.isSecret ? [$0.fileEnvironmentName] : []) } + [SettingsSources.configFileVariable])
        // A removed setting may be named where the docs say it is gone.
        let removed = Set(RemovedSetting.all.map(\.environmentName))
        var unknown: [String] = []
        var seen = 0
        for (path, text) in try Self.shippedTexts() {
            // `ENTRUPY_RELAY_RETENTION_*_DAYS` stands for the settings it matches, and must match one.
            for name in try Self.matches(#"ENTRUPY_RELAY_[A-Z0-9_*]*[A-Z0-9*]"#, in: text) {
                seen += 1
                if name.contains("*") {
                    let pattern = "^" + name.replacingOccurrences(of: "*", with: "[A-Z0-9_]+") + "$"
                    if try known.allSatisfy({ try Self.matches(pattern, in: $0).isEmpty }) { unknown.append("\(path): \(name)") }
                } else if !known.contains(name), !removed.contains(name), Self.notSettings[name] == nil {
                    unknown.append("\(path): \(name)")
                }
            }
        }
        #expect(seen > 50, "the scan found too few names to mean anything")
        #expect(unknown.isEmpty, "not settings (see config reference --all):\n\(Set(unknown).sorted().joined(separator: "\n"))")
        // The allowed list holds nothing that is a setting after all.
        #expect(Self.notSettings.keys.allSatisfy { !known.contains($0) })
    }

    /// The example loads with the real `rules check`, given only the variables it documents (each
    /// `${NAME}` as the systemd credential its comments describe), and not without them.
    @Test func theExampleRulesLoadWithOnlyTheVariablesTheyDocument() async throws {
        let example = Self.root.appendingPathComponent("deploy/rules/example.yaml")
        let text = try String(contentsOf: example, encoding: .utf8)
        // The references the rules make (the comments explain the `${NAME}` form itself).
        let rules = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
        let names = Set(try Self.matches(#"\$\{[A-Za-z0-9_]+\}"#, in: rules).map { String($0.dropFirst(2).dropLast()) })
        #expect(!names.isEmpty)
        let folder = try TestServerProcess.temporaryDirectory("rules-secrets")
        defer { try? FileManager.default.removeItem(at: folder) }
        var env = ["PATH": "/usr/bin:/bin"]
        for name in names.sorted() {
            let credential = name.lowercased().replacingOccurrences(of: "_", with: "-")
            #expect(text.contains("LoadCredential=\(credential):/etc/entrupy-relay/credentials/\(credential)"), "\(name): no LoadCredential line")
            #expect(text.contains("Environment=\(name)_FILE=%d/\(credential)"), "\(name): no Environment=\(name)_FILE line")
            let file = folder.appendingPathComponent(credential)
            try (WebhookFixture.standardSecret + "\n").write(to: file, atomically: true, encoding: .utf8)
            env[name + "_FILE"] = file.path
        }
        let loaded = try await CommandLineTests.run(["rules", "check", example.path], env: env)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.hasPrefix("\(example.path): ok, 3 rules"), "\(loaded.stdout)")
        let bare = try await CommandLineTests.run(["rules", "check", example.path], env: ["PATH": "/usr/bin:/bin"])
        #expect(bare.status != 0)
        #expect(names.allSatisfy { bare.stderr.contains($0) }, "\(bare.stderr)")
    }

    /// Paths under /usr/share/doc/entrupy-relay and /etc/entrupy-relay that the docs, the README
    /// and the shipped examples name are in the package (deploy/package.sh --list), but for the
    /// files an operator writes.
    @Test func pathsTheDocsNameAreThePackages() async throws {
        let list = try await CommandLineTests.run([Self.root.appendingPathComponent("deploy/package.sh").path, "--list"],
                                                  env: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"], executable: "/bin/bash")
        #expect(list.status == 0, "\(list.stderr)")
        let packaged = Set(list.stdout.split(separator: "\n").map(String.init))
        #expect(packaged.contains("/usr/sbin/entrupy-relay-admin") && packaged.contains("/usr/share/doc/entrupy-relay/examples/nginx.conf"))
        // Written by the operator, never by the package: the secrets, the rules, a YAML settings file.
        let operatorWrites = ["/etc/entrupy-relay/credentials/", "/etc/entrupy-relay/rules.yaml", "/etc/entrupy-relay/relay.yaml"]
        var missing: [String] = []
        for (path, text) in try Self.shippedTexts() where path.hasSuffix(".md") || path.hasPrefix("deploy/package/") || path.hasPrefix("deploy/rules/")
            || path.hasPrefix("deploy/systemd/") || path.hasPrefix("deploy/nginx/") {
            for var named in try Self.matches(#"/(usr/share/doc/entrupy-relay|etc/entrupy-relay)(/[A-Za-z0-9._@-]+)*/?"#, in: text) {
                while named.hasSuffix(".") { named.removeLast() }
                let bare = named.hasSuffix("/") ? String(named.dropLast()) : named
                guard !operatorWrites.contains(where: { named.hasPrefix($0) || bare + "/" == $0 }) else { continue }
                if !packaged.contains(bare) { missing.append("\(path): \(named)") }
            }
        }
        #expect(missing.isEmpty, "not in the package:\n\(Set(missing).sorted().joined(separator: "\n"))")
    }

    /// The served OpenAPI document's version is `entrupy-relay --version`, and it lists the receiver.
    @Test func theOpenAPIDocumentIsTheReleasesAndListsTheReceiver() async throws {
        let version = try await CommandLineTests.run(["--version"], env: ["PATH": "/usr/bin:/bin"])
        #expect(version.status == 0 && version.stdout == RelayRelease.version + "\n")
        try await TestRelay.withFresh { relay async throws in
            let document = try await relay.request("/openapi.json").json
            let info = document?["info"] as? [String: Any]
            #expect(info?["version"] as? String == version.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let paths = document?["paths"] as? [String: Any]
            let receiver = paths?["/webhooks/entrupy"] as? [String: Any]
            #expect(receiver?["post"] != nil, "no POST /webhooks/entrupy in the document")
        }
    }
}
