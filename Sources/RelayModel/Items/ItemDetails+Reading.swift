import Foundation

extension ItemDetails {
    /// Reads the details of a raw item (`{"item": {...}}` or the bare item). Every field is
    /// optional and every shape tolerated: a value of the wrong kind is left out, never an error.
    public static func read(from raw: JSONValue) -> ItemDetails {
        let item = raw["item"].flatMap { $0.objectValue != nil ? $0 : nil } ?? raw
        var details = ItemDetails()
        details.resultHeader = text(item[path: "status.result.display.header"])
        details.resultMessage = text(item[path: "status.result.display.message"])
        details.resultReason = text(item[path: "status.result.reason"])
        details.initialResult = item[path: "status.initial_result.id"]?.scalarText ?? text(item[path: "status.initial_result"])
        details.reasons = (item[path: "status.result.display.reasons"]?.arrayValue ?? []).compactMap(reason)
        let flag = item[path: "status.flag"]
        details.isFlaggable = isFlaggable(in: item)
        details.flagReasons = flagReasons(in: item)
        details.flagInfo = flag?["flag_info"].flatMap(flagInfo)
        details.photos = photos(in: item)
        let certificate = item["certificate"] ?? item[path: "more_details.certificate"]
        details.certificateSite = text(certificate?["site"])
        details.certificatePreview = text(certificate?["preview"])
        details.certificateID = certificate?["certificate_id"]?.scalarText
        details.eventTimes = eventTimes(in: item)
        details.organization = text(item[path: "owner.organization.name"])
        details.activityName = text(item[path: "activity.name"])
        details.activityMode = text(item[path: "activity.mode"])
        details.formFactor = text(item[path: "activity.form_factor"])
        details.textFields = textFields(in: item)
        details.retakeReasons = retakeReasons(in: item)
        let state = item["customer_state"] ?? item[path: "batch_request.customer_state"]
        details.customerState = text(state) ?? state?["id"]?.scalarText
        return details
    }

    /// `batch_request.retake_reasons` (also at the item's top level): each a string, or an
    /// object whose `text`, `label`, `message`, `reason` or `id` says it. At most 50, each cut to 500.
    static func retakeReasons(in item: JSONValue) -> [String] {
        let list = (item[path: "batch_request.retake_reasons"] ?? item["retake_reasons"])?.arrayValue ?? []
        return list.prefix(50).compactMap { value in
            let said = text(value) ?? ["text", "label", "message", "reason"].lazy.compactMap { text(value[$0]) }.first ?? value["id"]?.scalarText
            return said.map { String($0.prefix(500)) }
        }
    }

    static let eventTimeNames = ["capture_started_at", "submitted_at", "initial_result_set_at", "result_returned_at"]

    static func eventTimes(in item: JSONValue) -> [EventTime] {
        var times: [EventTime] = []
        for name in eventTimeNames {
            guard let value = item[path: "event_times.\(name)"], let time = eventTime(name, value) else { continue }
            times.append(time)
        }
        if let started = item["timestamp"], let time = eventTime("started", started) { times.append(time) }
        if let created = item[path: "timestamp.created_at"], let time = eventTime("created", created) { times.append(time) }
        if let updated = item[path: "timestamp.last_updated_at"], let time = eventTime("last_updated", updated) { times.append(time) }
        return times
    }

    /// `{epoch, display}`, a bare epoch number, or an ISO 8601 string.
    static func eventTime(_ name: String, _ value: JSONValue) -> EventTime? {
        switch value {
        case .number:
            return value.doubleValue.flatMap(EntrupyItemParser.submissionDate).map { EventTime(name: name, at: $0, display: nil) }
        case .string(let text):
            guard let date = ISODate.parse(text) else { return nil }
            return EventTime(name: name, at: date, display: text)
        case .object:
            let at = value["epoch"]?.doubleValue.flatMap(EntrupyItemParser.submissionDate)
            let display = text(value["display"])
            guard at != nil || display != nil else { return nil }
            return EventTime(name: name, at: at, display: display)
        default:
            return nil
        }
    }

    /// `images.item_photo` (a URL or `{urls}`) first, then `images.uploaded_images[].urls`;
    /// a URL given twice is one photo (with the thumbnail either gave).
    static func photos(in item: JSONValue) -> [Photo] {
        var photos: [Photo] = []
        let candidates = [item[path: "images.item_photo"]] + (item[path: "images.uploaded_images"]?.arrayValue ?? []).map { Optional($0) }
        for case let value? in candidates {
            let urls = value["urls"] ?? value
            guard let original = text(urls["original"]) ?? text(value) else { continue }
            let thumbnail = text(urls["scale_micro"])
            if let index = photos.firstIndex(where: { $0.original == original }) {
                photos[index].thumbnail = photos[index].thumbnail ?? thumbnail
            } else {
                photos.append(Photo(original: original, thumbnail: thumbnail))
            }
        }
        return photos
    }

    /// REST v1: an object of name → text (or `{content}`); the SDK: an array of
    /// `{name|key|id, display_name, content, is_identifier}`; v2 adds `properties.customer_item_id`.
    static func textFields(in item: JSONValue) -> [TextField] {
        var fields: [TextField] = []
        if let object = item["text_fields"]?.objectValue {
            for name in object.keys.sorted() {
                guard let value = object[name], let content = WebhookPayloadParser.identifier(from: value) ?? text(value["content"]) else { continue }
                fields.append(TextField(name: name, displayName: text(value["display_name"]), content: content,
                                        isIdentifier: value["is_identifier"]?.boolValue))
            }
        } else if let array = item["text_fields"]?.arrayValue {
            for element in array {
                guard let content = element["content"]?.scalarText.flatMap(EntrupyItemParser.nonEmpty) else { continue }
                let name = (element["name"] ?? element["key"] ?? element["id"])?.scalarText
                    ?? text(element["display_name"]).map { $0.lowercased().replacingOccurrences(of: " ", with: "_") } ?? "field"
                fields.append(TextField(name: name, displayName: text(element["display_name"]), content: content,
                                        isIdentifier: element["is_identifier"]?.boolValue))
            }
        }
        if !fields.contains(where: { $0.name == "customer_item_id" }),
           let v2 = item[path: "properties.customer_item_id"].flatMap(WebhookPayloadParser.identifier) {
            fields.insert(TextField(name: "customer_item_id", displayName: nil, content: v2, isIdentifier: true), at: 0)
        }
        return fields
    }

    static func reason(_ value: JSONValue) -> Reason? {
        if let plain = text(value) { return Reason(text: plain, image: nil) }
        guard let body = text(value["text"]) ?? text(value["message"]) else { return nil }
        return Reason(text: body, image: text(value["image"]))
    }

    static func flagInfo(_ value: JSONValue) -> FlagInfo? {
        let info = FlagInfo(id: value["id"]?.scalarText, label: text(value["label"]), message: text(value["message"]))
        return info.id == nil && info.label == nil && info.message == nil ? nil : info
    }

    /// A non-blank string, trimmed; numbers and other kinds are not text here.
    static func text(_ value: JSONValue?) -> String? {
        value?.stringValue.flatMap(EntrupyItemParser.nonEmpty)
    }
}
