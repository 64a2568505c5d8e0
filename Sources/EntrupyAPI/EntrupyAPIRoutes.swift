import Foundation
public import RelayModel

/// Where each operation lives in one version of Entrupy's REST API and which `Api-Version` its
/// routes carry: the one table the client reads. `{id}` and `{customer_item_id}` are replaced
/// by the path-escaped value.
///
/// v1.4 is documented route by route (contract section 2). Entrupy's v2 reference, as far as we
/// could read it, names the operations but not their paths: v1's under `/v2` is **our
/// assumption** (docs/entrupy.md), so every path is also a setting for the day Entrupy's
/// differ. `entrupy-relay entrupy check` tries each.
public struct EntrupyAPIRoutes: Sendable, Equatable {
    public enum Version: String, Sendable, CaseIterable {
        case v2 = "2"
        case v1_4 = "1.4"
    }

    public var version: Version
    /// Sent as `Api-Version` on the item routes and health; nil sends none.
    public var versionHeader: String?
    public var item: String
    public var lookup: String
    public var search: String
    public var health: String
    /// `POST …/integrations/authorize-user`: documented under `/v2` with no `Api-Version`, in either version.
    public var authorizeUser = "/v2/integrations/authorize-user"
    /// The most items one search page may ask for (both versions document 25).
    public var searchLimit = 25
    /// `POST` "Flag an authentication" (body `reason`, `comments`): a v2 operation whose path is
    /// **our reading** (v2's item path plus `/flag`), called without `Api-Version` in either version.
    public var flag = "/v2/authentications/{id}/flag"
    /// What the item fetches (get and lookup) ask to be included, each sent as `name=true`: v2
    /// answers images and catalog data only when asked ("To include images in the response, use
    /// the `include_images=true` query parameter. To ensure catalog data is included, use
    /// `include_catalog=true`", Entrupy's v2 reference, Catalog Data). v1.4 answers them unasked.
    public var itemIncludes: [String] = []

    /// Entrupy's documented v1.4 routes.
    public static let v1_4 = EntrupyAPIRoutes(
        version: .v1_4, versionHeader: "1.4", item: "/v1/authentications/{id}", lookup: "/v1/lookup/authentications/{customer_item_id}",
        search: "/v1/search/authentications", health: "/v1/health")

    /// v2: v1's paths under `/v2` (assumed). "Most endpoints also accept an `Api-Version`
    /// header", which says it is not needed: none is sent.
    public static let v2 = EntrupyAPIRoutes(
        version: .v2, versionHeader: nil, item: "/v2/authentications/{id}", lookup: "/v2/lookup/authentications/{customer_item_id}",
        search: "/v2/search/authentications", health: "/v2/health", itemIncludes: ["include_images"])

    public static func defaults(for version: Version) -> EntrupyAPIRoutes {
        switch version {
        case .v2: v2
        case .v1_4: v1_4
        }
    }

    /// `GET item` for an Entrupy ID, with what it asks to include.
    func itemPath(_ entrupyID: String) -> String {
        item.replacingOccurrences(of: "{id}", with: PercentEncoding.pathSegment(entrupyID)) + includeQuery
    }

    /// The lookup answers an item too, so it asks for what the get asks for (our reading: the
    /// reference quotes the parameters on the get).
    func lookupPath(_ customerItemID: String) -> String {
        lookup.replacingOccurrences(of: "{customer_item_id}", with: PercentEncoding.pathSegment(customerItemID)) + includeQuery
    }

    /// `POST` flag for an Entrupy ID (nothing to include: it answers no item).
    func flagPath(_ entrupyID: String) -> String {
        flag.replacingOccurrences(of: "{id}", with: PercentEncoding.pathSegment(entrupyID))
    }

    /// `?include_images=true&…`, or nothing when nothing is asked for.
    var includeQuery: String {
        itemIncludes.isEmpty ? "" : "?" + itemIncludes.map { $0 + "=true" }.joined(separator: "&")
    }

    /// Why `path` cannot be a route path, or nil: it starts with `/`, holds no query, fragment,
    /// space or control character, and holds `placeholder` exactly once when one is named.
    public static func problem(path: String, placeholder: String?) -> String? {
        guard path.hasPrefix("/"), path.count <= 200 else { return "expected a path starting with /" }
        guard !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "?" || $0 == "#" || $0 == "%" }) else {
            return "a path holds no spaces, query, fragment or escapes"
        }
        let braces = path.filter { $0 == "{" || $0 == "}" }.count
        if let placeholder {
            guard path.components(separatedBy: placeholder).count == 2, braces == 2 else { return "expected \(placeholder) once, such as /v2/x/\(placeholder)" }
        } else if braces > 0 {
            return "this route takes no placeholder"
        }
        return nil
    }
}
