import Mustache

/// The console's pages: Mustache files in `Resources/console/`, compiled into the binary
/// (`.embedInCode`), HTML-escaped by default, no script anywhere (the Content-Security-Policy
/// forbids it). Every form carries the CSRF token.
enum ConsoleTemplates {
    /// Parsed once. The templates ship inside the binary, so a parse error is a bug in them
    /// (the console tests render every page), never something input could cause.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let templates: [(String, [UInt8])] = [
            ("header", PackageResources.header_mustache), ("footer", PackageResources.footer_mustache),
            ("login", PackageResources.login_mustache), ("items", PackageResources.items_mustache),
            ("overview", PackageResources.overview_mustache), ("deliveries", PackageResources.deliveries_mustache),
            ("targets", PackageResources.targets_mustache), ("silences", PackageResources.silences_mustache),
            ("item", PackageResources.item_mustache), ("message", PackageResources.message_mustache),
        ]
        for (name, bytes) in templates {
            do {
                try library.register(String(decoding: bytes, as: UTF8.self), named: name)
            } catch {
                preconditionFailure("console template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    static let css = String(decoding: PackageResources.style_css, as: UTF8.self)
}
