import ArgumentParser
import RelayApp

/// `config reference`: every setting, what it takes, its default and meaning (the README's table).
struct ConfigReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Print every setting as a Markdown table (the README's is this output)."
    )

    func run() {
        print(ConfigReference.markdown(), terminator: "")
    }
}
