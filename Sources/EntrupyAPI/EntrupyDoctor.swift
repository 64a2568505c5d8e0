public import Foundation
public import RelayModel

/// The first-hour checks of `entrupy-relay entrupy check`: with the operator's token and
/// settings, read-only, each assumption the relay depends on is tried against Entrupy and
/// reported `ok`, `differs` (with what was seen) or `skipped`. Nothing is written at Entrupy:
/// authorize-user, which creates users, is not tried.
public struct EntrupyDoctor: Sendable {
    let api: EntrupyAPIClient
    /// The other version's client, asked only when the configured version's routes are not there.
    let other: EntrupyAPIClient

    public init(api: EntrupyAPIClient, other: EntrupyAPIClient) {
        self.api = api
        self.other = other
    }

    /// - Parameters:
    ///   - customerItemID: an item the operator knows, looked up; nil skips the lookup.
    ///   - categories: the category filter every sync search carries.
    ///   - lookback: how far back the search window reaches.
    public func run(customerItemID: String?, categories: SearchQuery.Filter, lookback: Duration, now: Date = Date()) async -> [EntrupyFinding] {
        let access = await tokenAndVersion()
        guard access.accepted else { return access.findings }
        let lookedUp = await lookup(customerItemID: customerItemID)
        let searched = await search(categories: categories, lookback: lookback, now: now)
        return access.findings + [lookedUp] + searched.findings + [await images(of: searched.firstID)]
    }

    /// Whether the token is accepted and the configured version's routes answer; nothing else
    /// is tried when not.
    private func tokenAndVersion() async -> (findings: [EntrupyFinding], accepted: Bool) {
        let routes = api.configuration.routes
        do {
            try await api.health()
            return ([
                EntrupyFinding("token", .ok, "accepted (GET \(routes.health) answers {\"status\": \"ok\"})"),
                EntrupyFinding("api version", .ok, "v\(routes.version.rawValue) routes answer, Api-Version \(routes.versionHeader ?? "not sent")"),
            ], true)
        } catch EntrupyAPIError.unauthorized(let status) {
            return ([
                EntrupyFinding("token", .differs, "refused (\(status)): check ENTRUPY_RELAY_ENTRUPY_API_TOKEN is the organisation's API token"),
                EntrupyFinding("api version", .skipped, "needs an accepted token"),
            ], false)
        } catch let error as EntrupyAPIError {
            guard case .routeGone(let status, let path) = error else {
                return ([EntrupyFinding("token", .differs, "not checked: \(error)")], false)
            }
            return ([
                EntrupyFinding("token", .skipped, "the health route is not there"),
                EntrupyFinding("api version", .differs, await versionAdvice(path: path, status: status)),
            ], false)
        } catch {
            return ([EntrupyFinding("token", .differs, "not checked: \(error)")], false)
        }
    }

    /// The item the operator named, looked up and its answer's shape checked.
    private func lookup(customerItemID: String?) async -> EntrupyFinding {
        guard let customerItemID else {
            return EntrupyFinding("lookup", .skipped, "name an item the organisation submitted with --customer-item-id")
        }
        do {
            return EntrupyAnswerShape.lookup(try await api.lookupAnswer(customerItemID: customerItemID))
        } catch EntrupyAPIError.notFound {
            return EntrupyFinding("lookup", .differs, "GET \(api.configuration.routes.lookup) knows no authentication with customer item ID "
                + "\"\(TerminalText.printable(customerItemID))\" for this token (is it this organisation's, and submitted with that ID?)")
        } catch {
            return EntrupyFinding("lookup", .differs, "\(error)")
        }
    }

    /// The sync's first search page over the lookback window, and the shape of its first item.
    private func search(categories: SearchQuery.Filter, lookback: Duration, now: Date) async -> (findings: [EntrupyFinding], firstID: String?) {
        let routes = api.configuration.routes
        let end = Int64(now.timeIntervalSince1970.rounded(.up))
        let start = end - lookback.components.seconds
        let filtered = SearchQuery(filters: [categories], limit: routes.searchLimit, startEpoch: start, endEpoch: end)
        do {
            let json = try await api.searchAnswer(filtered, priority: .interactive)
            let page = try SearchPage.parse(json)
            let days = lookback.components.seconds / 86_400
            let searched: EntrupyFinding
            if page.items.isEmpty, page.skipped == 0 {
                searched = await blindSearch(unfiltered: SearchQuery(limit: routes.searchLimit, startEpoch: start, endEpoch: end),
                                             categories: categories, days: days)
            } else {
                searched = Self.searchFinding(page, json: json, categories: categories, days: days, limit: routes.searchLimit)
            }
            let first = json["items"]?.arrayValue?.first
            return ([searched, first.map(EntrupyAnswerShape.item) ?? EntrupyFinding("item shape", .skipped, "no item seen")],
                    first?["entrupy_id"]?.stringValue)
        } catch {
            return ([EntrupyFinding("search", .differs, "\(error)"), EntrupyFinding("item shape", .skipped, "no item seen")], nil)
        }
    }

    /// What a first search page that has items says: too many for the limit, some unreadable, or fine.
    private static func searchFinding(_ page: SearchPage, json: JSONValue, categories: SearchQuery.Filter, days: Int64,
                                      limit: Int) -> EntrupyFinding {
        if page.items.count + page.skipped > limit {
            return EntrupyFinding("search", .differs, "answered \(page.items.count + page.skipped) items for a limit of \(limit)")
        }
        if page.skipped > 0 {
            return EntrupyFinding("search", .differs, "\(page.skipped) of \(page.items.count + page.skipped) items on the first page cannot be read; "
                + "the sync passes them over")
        }
        return EntrupyFinding("search", .ok, "\(page.items.count) items on the first page of the last \(days) days "
            + "(categories \(categories.values.joined(separator: ", "))); next_cursor \(EntrupyAnswerShape.cursorKind(json["next_cursor"]))")
    }

    /// The configured version's health route is not there: does the other version's answer?
    private func versionAdvice(path: String, status: Int) async -> String {
        let mine = "GET \(path) answered \(status)"
        let otherRoutes = other.configuration.routes
        do {
            try await other.health()
            return mine + "; v\(otherRoutes.version.rawValue)'s GET \(otherRoutes.health) answers: set ENTRUPY_RELAY_ENTRUPY_API_VERSION=\(otherRoutes.version.rawValue) "
                + "(or the path settings, if Entrupy moved the routes)"
        } catch {
            return mine + ", and v\(otherRoutes.version.rawValue)'s GET \(otherRoutes.health) does not answer either (\(error)): check ENTRUPY_RELAY_ENTRUPY_API_URL"
        }
    }

    /// The filtered search saw nothing: without the filter, does it see something?
    private func blindSearch(unfiltered: SearchQuery, categories: SearchQuery.Filter, days: Int64) async -> EntrupyFinding {
        let filterText = "\(categories.key) in \(categories.values.joined(separator: ", "))"
        do {
            let page = try SearchPage.parse(try await api.searchAnswer(unfiltered, priority: .interactive))
            if page.items.isEmpty {
                return EntrupyFinding("search", .differs, "no items in the last \(days) days, with or without the category filter: "
                    + "if the organisation has authentications, this token is not the one of the organisation that sends the webhooks")
            }
            let seen = Set(page.items.compactMap(\.category)).sorted()
            return EntrupyFinding("search", .differs, "answers nothing with the category filter (\(filterText)) but \(page.items.count) items without it"
                + (seen.isEmpty ? "" : " (categories \(seen.joined(separator: ", ")))")
                + ": the sync would see nothing; add the categories to ENTRUPY_RELAY_SYNC_CATEGORIES")
        } catch {
            return EntrupyFinding("search", .differs, "answers nothing with the category filter (\(filterText)), and without it: \(error)")
        }
    }
}
