import Foundation

/// The public v1.4 item (contract section 3), in the item's variant.
extension SimItem {
    /// Where photos and certificates of an item made before the server knew its own address
    /// point: a host that never resolves.
    static let mediaBase = "https://sim.entrupy.invalid"

    var json: SimJSON {
        var members: [String: SimJSON] = [
            "entrupy_id": .string(entrupyID),
            "status": .object(["result": resultJSON, "flag": flagJSON]),
            "properties": .object([
                "brand": .object(["id": .string(brand), "name": .string(Self.displayName(brand))]),
                "model": model.map { .object(["id": .string($0), "name": .string(Self.displayName($0))]) } ?? .null,
            ]),
            "activity": .object([
                "name": .string("authentication"), "mode": .string("standard"),
                "form_factor": .string(formFactor), "product_category": .string(category),
            ]),
            "text_fields": .object([
                "customer_item_id": .string(customerItemID), "order_id": .optional(orderID), "style_code": .optional(styleCode),
                "size": .optional(size), "upc": .optional(upc), "serial": .optional(serial),
            ]),
            "images": imagesJSON,
            "event_times": .object([
                "capture_started_at": Self.time(captureStartedAt), "submitted_at": Self.time(submittedAt),
                "initial_result_set_at": Self.time(initialResultSetAt), "result_returned_at": Self.time(resultReturnedAt),
            ]),
            "timestamp": Self.time(captureStartedAt),
            "owner": .object([
                "user": .object(["username": .string(username)]),
                "organization": .object(["name": .string(organisation)]),
            ]),
        ]
        members.merge(retakeJSON) { _, new in new }
        if hasCertificate {
            members["certificate"] = .object([
                "site": .string("\(media)/certificates/\(entrupyID)"),
                "preview": .string("\(media)/certificates/\(entrupyID)/preview.png"),
            ])
        }
        return .object(members)
    }

    private var resultJSON: SimJSON {
        let display = ResultCatalogue.display(for: result)
        var members: [String: SimJSON] = [
            "id": .string(result),
            "display": .object([
                "header": .string(display.header), "message": .string(display.message),
                "reasons": .array(reasons.map(\.json)),
            ]),
        ]
        if !(variant.omitFinal && final == ResultCatalogue.isFinalWhenUnstated(result)) {
            members["final"] = .bool(final)
        }
        if result == "invalid" {
            members["reason"] = .string(resultReason ?? ResultCatalogue.defaultInvalidReason)
        }
        return .object(members)
    }

    private var flagJSON: SimJSON {
        switch variant.flagStyle {
        case .string: .string(flag)
        case .null: flag == "none" ? .null : .string(flag)
        case .object: .object(["id": .string(flag), "is_flaggable": .bool(isFlaggable), "flag_info": flagInfo?.json ?? .null])
        }
    }

    /// `images`, the same in v1.4 and v2.
    /// `batch_request.retake_reasons` and `customer_state`, only when the last result gave them.
    var retakeJSON: [String: SimJSON] {
        var members: [String: SimJSON] = [:]
        if !retakeReasons.isEmpty { members["batch_request"] = .object(["retake_reasons": .array(retakeReasons.map(SimJSON.string))]) }
        if let customerState { members["customer_state"] = .string(customerState) }
        return members
    }

    var imagesJSON: SimJSON {
        let base = "\(media)/items/\(entrupyID)/photos"
        let uploaded: [SimJSON] = (0..<photos).map { index in
            .object(["urls": .object([
                "original": .string("\(base)/\(index + 1).jpg"), "scale_micro": .string("\(base)/\(index + 1)_micro.jpg"),
            ])])
        }
        return .object([
            "item_photo": photos > 0 ? .string("\(base)/1.jpg") : .null,
            "uploaded_images": .array(uploaded),
        ])
    }

    /// `{epoch, display}`, or null for a time that has not happened.
    private static func time(_ epoch: Double?) -> SimJSON {
        guard let epoch else { return .null }
        let display = Date(timeIntervalSince1970: epoch).formatted(.iso8601)
        return .object(["epoch": .number(epoch), "display": .string(display)])
    }

    /// `louis_vuitton` → `Louis Vuitton`.
    static func displayName(_ id: String) -> String {
        id.replacingOccurrences(of: "_", with: " ").capitalized
    }
}
