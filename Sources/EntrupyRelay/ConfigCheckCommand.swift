import ArgumentParser
import AsyncHTTPClient
import EntrupyAPI
import Foundation
import Logging
import RelayApp
import RelayModel
import RelayDatabase
import RelayNotify
import RelayRuntime
import RelayStore

/// `config check [--connect]`: every setting validated as the command would at start-up, the
/// rules file and the mail settings too; with `--connect`, PostgreSQL (TLS as configured),
/// the SMTP server and Entrupy's API are reached. One line each; exit 1 on any failure.
struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Validate every setting; with --connect, also reach PostgreSQL, SMTP and Entrupy. Exit 1 on any problem."
    )

    @Option(name: .customLong("for"), help: "The command whose required settings to check: \(CheckedCommand.allCases.map(\.rawValue).joined(separator: ", ")).")
    var command: CheckedCommand = .serve

    @Flag(help: "Also connect to PostgreSQL, the SMTP server and Entrupy's API.")
    var connect = false

    func run() async throws {
        var report = CheckReport()
        let settings: RelaySettings
        do {
            let sources = try SettingsSources.process()
            try sources.checkNames(RelaySettings.catalog)
            settings = try RelaySettings(reader: sources.reader(), receiving: command.receiving, reconciling: command.reconciling)
            for name in sources.unprefixedNames(RelaySettings.catalog) {
                report.warn("\(name.given) is set but read no more (since 0.1.0); the relay reads \(name.setting)")
            }
            report.pass("settings", "valid for \(command.rawValue)" + (sources.configFilePath.map { ", with \($0)" } ?? ""))
        } catch {
            report.fail("settings", "\(error)")
            report.finish()
        }
        do {
            let rules = try WorkerAssembly.rulesStore(settings: settings)
            report.pass("rules", settings.notify.rulesFile.map { "\($0): \(rules.current.rules.count) rules" } ?? "none set: nothing is sent")
        } catch {
            report.fail("rules", "\(error)")
        }
        var smtp: SMTPClient?
        do {
            smtp = try WorkerAssembly.smtpClient(settings: settings)
            if smtp == nil { report.pass("smtp", "not set: email deliveries wait and retry") }
        } catch {
            report.fail("smtp", "\(error)")
        }
        if connect {
            await checkDatabase(settings, &report)
            if let smtp { await checkSMTP(smtp, &report) }
            await checkEntrupy(settings, &report)
        } else if smtp != nil {
            report.pass("smtp", "settings valid (--connect reaches the server)")
        }
        report.finish()
    }
}
