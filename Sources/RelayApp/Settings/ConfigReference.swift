import Foundation
public import RelayModel
public import RelayRuntime

/// The reference table of the settings, as `config reference` prints it and docs/configuration.md holds it
/// (a test keeps the two equal): the operator's settings, each with why one would change it;
/// with `--all`, the tuning knobs too, marked as such.
public enum ConfigReference {
    public typealias Groups = [(title: String, settings: [Setting])]

    /// Markdown: how settings are given, the operator's table, then (with `all`) a table of tuning
    /// knobs for each group, or else a line saying how to see them.
    public static func markdown(all: Bool = false, _ groups: Groups = RelaySettings.catalogGroups) -> String {
        let settings = groups.flatMap(\.settings)
        let operators = settings.filter { $0.audience.why != nil }
        var lines = [
            "Every variable may instead be a key of the YAML file `\(Setting.environmentPrefix)CONFIG_FILE` names "
                + "(the key is the variable's name without the prefix, in lower case: `port: 8080`; `OTEL_*` keep their prefix: "
                + "`otel_service_name`); the environment wins. "
                + "A secret (marked 🔒) may instead be read from a file named by its variable with `_FILE` appended "
                + "(or its key with `_file`), such as a systemd credential.",
            "", "#### The settings an operator sets", "",
            "| variable (file key) | takes | default | meaning | why you would change it |", "| --- | --- | --- | --- | --- |",
        ]
        lines += operators.map { row($0, $0.audience.why.map { [$0] } ?? []) }
        guard all else {
            let tuning = settings.count - operators.count
            return (lines + ["", "The other \(tuning) settings are tuning knobs, whose defaults suit almost every installation: "
                + "`entrupy-relay config reference --all` lists them."]).joined(separator: "\n") + "\n"
        }
        lines += ["", "### Tuning knobs", "", "Change one only when a measurement says its default does not suit you."]
        for group in groups {
            let knobs = group.settings.filter { $0.audience == .tuning }
            guard !knobs.isEmpty else { continue }
            lines += ["", "#### \(group.title) (tuning)", "", "| variable (file key) | takes | default | meaning |", "| --- | --- | --- | --- |"]
            lines += knobs.map { row($0, []) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One setting's row: its names, what it takes, its default and meaning, then `more` cells.
    static func row(_ setting: Setting, _ more: [String]) -> String {
        let name = "`\(setting.environmentName)`\(setting.isSecret ? " 🔒" : "") (`\(setting.key)`)"
        let defaultText = setting.defaultText.contains("`") || setting.defaultText.contains(" ") ? setting.defaultText : "`\(setting.defaultText)`"
        return "| " + ([name, setting.takes, defaultText, setting.summary] + more).map(cell).joined(separator: " | ") + " |"
    }

    /// A table cell: a pipe would end it.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
