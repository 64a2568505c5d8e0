import ArgumentParser

/// `config check | show | reference`: the configuration checked, shown and documented
/// without starting anything.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check, show or list the relay's settings.",
        subcommands: [ConfigCheckCommand.self, ConfigShowCommand.self, ConfigReferenceCommand.self]
    )
}
