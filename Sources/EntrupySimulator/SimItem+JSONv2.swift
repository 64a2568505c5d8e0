import Foundation

/// The public v2 item (contract section 2a): what the `/v2/` routes answer and, once v1 is
/// retired (`api_version` `"2"`), what webhooks carry. One shape for every item: the v1.4
/// variants (flag as an object, `final` left out) are v1.4's, and v2 documents `status.flag`
/// as a string or null and `status.result.final` beside every id.
extension SimItem {
    /// UTC with milliseconds: the stored times are to the millisecond, so two changes within a
    /// second still read in order. A value type, so one instance serves every thread.
    static let isoMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The whole v2 item, as webhooks and searches carry it.
    var jsonV2: SimJSON { jsonV2(including: .all) }

    /// The v2 item with images and catalog data only as `includes` asks.
    func jsonV2(including includes: SimIncludes) -> SimJSON {
        var members: [String: SimJSON] = [
            "entrupy_id": .string(entrupyID),
            // `created_at` is the submission, not the capture start v1.4's `timestamp.epoch` is:
            // search's date range and order are on the submission, so a reader windowing by
            // `created_at` and this server's search agree.
            "timestamp": .object([
                "created_at": .string(Self.isoMilliseconds.format(Date(timeIntervalSince1970: submittedAt))),
                "last_updated_at": .string(Self.isoMilliseconds.format(Date(timeIntervalSince1970: lastUpdatedAt))),
            ]),
            "status": .object([
                "result": resultJSONv2,
                "initial_result": initialResultJSON,
                "flag": flag == "none" ? .null : .string(flag),
                // Our reading of where v2 says whether and why an item may be flagged (the SDK's
                // flag details name `is_flaggable` and `supported_flag_reasons`).
                "is_flaggable": .bool(isFlaggable && flag != "flagged" && final),
                "supported_flag_reasons": .array(SimFlagDesk.reasons.map(\.json)),
            ]),
            "activity": .object([
                "name": .string("authentication"), "mode": .string("standard_authentication"),
                "product_category": .string(category), "form_factor": .string(formFactor),
            ]),
            "properties": .object([
                "customer_item_id": .string(customerItemID),
                "brand": .string(Self.displayName(brand)), "brand_name": .string(Self.displayName(brand)),
                "category": .string(Self.displayName(category)), "category_name": .string(Self.displayName(category)),
                "model_name": model.map { .string(Self.displayName($0)) } ?? .null,
            ]),
            // `organization_id` and `user_id` are v2's; `user.username` is kept beside them. Our
            // assumption: v2 still names the submitter's username somewhere, and the relay maps
            // submitters (SDK users, authorize-user's `username`) by it.
            "owner": .object([
                "organization_id": .string("org_" + organisation.lowercased()),
                "user_id": .string("usr_" + username),
                "user": .object(["username": .string(username)]),
            ]),
            "text_fields": .object(textFieldsV2),
            "fingerprint_parent": .null,
        ]
        if includes.images { members["images"] = imagesJSON }
        if includes.catalog { members["catalog"] = catalogJSON }
        members.merge(retakeJSON) { _, new in new }
        if hasCertificate {
            members["certificate"] = .object(["certificate_id": .string("cert_" + entrupyID)])
        }
        return .object(members)
    }

    /// Catalog data as the simulator makes it up (v2 names `catalog`, not its members): the
    /// brand and model the item was submitted as.
    private var catalogJSON: SimJSON {
        .object([
            "brand_name": .string(Self.displayName(brand)),
            "model_name": model.map { .string(Self.displayName($0)) } ?? .null,
            "product_category": .string(category),
        ])
    }

    /// `{id, final, display}`: `final` always, and `reason` for an invalid result as in v1.4.
    private var resultJSONv2: SimJSON {
        let display = ResultCatalogue.display(for: result)
        var members: [String: SimJSON] = [
            "id": .string(result),
            "final": .bool(final),
            "display": .object([
                "header": .string(display.header), "message": .string(display.message),
                "reasons": .array(reasons.map(\.json)),
            ]),
        ]
        if result == "invalid" {
            members["reason"] = .string(resultReason ?? ResultCatalogue.defaultInvalidReason)
        }
        return .object(members)
    }

    /// `{id, final}` of the first result the item had; null if it never had one.
    private var initialResultJSON: SimJSON {
        guard let initialResult else { return .null }
        let final = initialFinal ?? ResultCatalogue.isFinalWhenUnstated(initialResult)
        return .object(["id": .string(initialResult), "final": .bool(final)])
    }

    /// Free keys, only those the item has. The customer item ID is not among them: v2 moved it
    /// to `properties.customer_item_id`, and a reader must find it there.
    private var textFieldsV2: [String: SimJSON] {
        let pairs: [(String, String?)] = [
            ("order_id", orderID), ("style_code", styleCode), ("size", size), ("upc", upc), ("serial", serial),
        ]
        var fields: [String: SimJSON] = [:]
        for case let (key, value?) in pairs { fields[key] = .string(value) }
        return fields
    }
}
