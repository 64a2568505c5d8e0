import ArgumentParser
import RelayApp

/// `config reference`: the settings an operator sets, what each takes, its default, meaning and
/// why one would change it (docs/configuration.md's table); `--all` adds the tuning knobs.
struct ConfigReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Print the operator's settings as a Markdown table (docs/configuration.md's is this output); --all adds the tuning knobs."
    )

    @Flag(help: "Also list the tuning knobs, whose defaults suit almost every installation.")
    var all = false

    func run() {
        print(ConfigReference.markdown(all: all), terminator: "")
    }
}
