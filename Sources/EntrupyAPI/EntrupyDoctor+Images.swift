import RelayModel

extension EntrupyDoctor {
    /// The search's first item fetched as reconciles fetch it (v2: `include_images=true`, and
    /// `include_catalog=true` when asked for): does the answer carry `images` (and `catalog`)?
    /// A get is read-only, so this changes nothing at Entrupy.
    func images(of entrupyID: String?) async -> EntrupyFinding {
        guard let entrupyID else { return EntrupyFinding("images", .skipped, "no item seen to fetch") }
        let routes = api.configuration.routes
        let asked = routes.itemIncludes.isEmpty ? "nothing asked" : routes.itemIncludes.map { $0 + "=true" }.joined(separator: "&")
        do {
            let answer = try await api.itemAnswer(entrupyID: entrupyID)
            let item = answer["item"] ?? answer
            guard item["images"] != nil else {
                return EntrupyFinding("images", .differs, "GET \(routes.item) (\(asked)) answered no images: the item's page and "
                    + "`photo_url` will have none")
            }
            if routes.itemIncludes.contains("include_catalog"), item["catalog"] == nil {
                return EntrupyFinding("images", .differs, "images answered, but no catalog although include_catalog=true was asked")
            }
            return EntrupyFinding("images", .ok, "GET \(routes.item) (\(asked)) answers images")
        } catch {
            return EntrupyFinding("images", .differs, "GET \(routes.item) for \(TerminalText.printable(entrupyID)): \(error)")
        }
    }
}
