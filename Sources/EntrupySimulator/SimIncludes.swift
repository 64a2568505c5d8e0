import Hummingbird

/// What a v2 item answer carries beyond the item itself. Entrupy's v2 reference: "To include
/// images in the response, use the `include_images=true` query parameter. To ensure catalog
/// data is included, use `include_catalog=true`" (Catalog Data), so a v2 get or lookup leaves
/// both out unless asked. Webhooks and searches carry everything (v2 documents no parameter for
/// them; what its search's `format_options` do is not played).
struct SimIncludes: Sendable, Equatable {
    var images: Bool
    var catalog: Bool

    static let all = SimIncludes(images: true, catalog: true)

    /// `include_images=true` and `include_catalog=true` from the request's query (anything
    /// else, or nothing, leaves the part out).
    init(_ request: Request) {
        let query = request.uri.queryParameters
        images = query.get("include_images") == "true"
        catalog = query.get("include_catalog") == "true"
    }

    init(images: Bool, catalog: Bool) {
        self.images = images
        self.catalog = catalog
    }
}
