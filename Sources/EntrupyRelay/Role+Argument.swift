public import ArgumentParser
import RelayModel

/// `--role` parses straight into a `Role`: ArgumentParser refuses anything else and lists the
/// choices, so no command coerces an unknown role into another one.
extension Role: ExpressibleByArgument {}
