import Foundation
public import RelayCore

/// The reference table of every setting, as `config reference` prints it and the README holds
/// it (a test keeps the two equal).
public enum ConfigReference {
    /// Markdown: a heading and a table for each group.
    public static func markdown(_ groups: [(title: String, settings: [Setting])] = RelaySettings.catalogGroups) -> String {
        var lines = [
            "Every variable may instead be a key of the YAML file `\(Setting.environmentPrefix)CONFIG_FILE` names "
                + "(the key is the variable's name without the prefix, in lower case: `port: 8080`); the environment wins. "
                + "A secret (marked 🔒) may instead be read from a file named by its variable with `_FILE` appended "
                + "(or its key with `_file`), such as a systemd credential.",
        ]
        for group in groups {
            lines += ["", "#### \(group.title)", "", "| variable (file key) | takes | default | meaning |", "| --- | --- | --- | --- |"]
            for setting in group.settings {
                let name = "`\(setting.environmentName)`\(setting.isSecret ? " 🔒" : "") (`\(setting.key)`)"
                let defaultText = setting.defaultText.contains("`") || setting.defaultText.contains(" ") ? setting.defaultText : "`\(setting.defaultText)`"
                lines.append("| \(name) | \(cell(setting.takes)) | \(cell(defaultText)) | \(cell(setting.summary)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table cell: a pipe would end it.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
