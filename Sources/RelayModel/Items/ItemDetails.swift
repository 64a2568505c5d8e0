public import Foundation

/// What Entrupy says about an item beyond the state the relay diffs (contract section 3): the
/// result's human text and reasons, the flag's reason or resolution, photos, certificate,
/// event times, organisation, activity and text fields. Read from the stored raw item
/// (`ItemDetails.read(from:)`), whichever shape it came in (REST v1.4, the SDK's, v2);
/// anything not understood stays in the raw item.
public struct ItemDetails: Sendable, Equatable, Codable {
    public struct Reason: Sendable, Equatable, Codable {
        public var text: String
        public var image: String?
    }

    public struct FlagInfo: Sendable, Equatable, Codable {
        public var id: String?
        public var label: String?
        public var message: String?
    }

    public struct Photo: Sendable, Equatable, Codable {
        public var original: String
        /// The small version, when Entrupy gives one (`scale_micro`).
        public var thumbnail: String?
    }

    public struct EventTime: Sendable, Equatable, Codable {
        /// `submitted_at`, `capture_started_at`, `initial_result_set_at`, `result_returned_at`,
        /// or `started` (`timestamp.epoch`), `created` (v2 `timestamp.created_at`).
        public var name: String
        public var at: Date?
        /// Entrupy's own text for it, when given.
        public var display: String?
    }

    public struct TextField: Sendable, Equatable, Codable {
        /// `customer_item_id`, `order_id`, `style_code`, `size`, `upc`, `serial`, ... (the SDK's
        /// name, or the key in REST v1).
        public var name: String
        public var displayName: String?
        public var content: String
        public var isIdentifier: Bool?
    }

    public var resultHeader: String?
    public var resultMessage: String?
    /// Why an `invalid` result is invalid (`status.result.reason`, v1.2+).
    public var resultReason: String?
    /// v2's `status.initial_result.id`: the first result, before any review changed it.
    public var initialResult: String?
    public var reasons: [Reason] = []
    /// Whether the user may flag the result (SDK flag object); nil when not said.
    public var isFlaggable: Bool?
    public var flagInfo: FlagInfo?
    /// The reasons Entrupy offers for flagging it (`supported_flag_reasons`), when it names them.
    public var flagReasons: [FlagInfo] = []
    public var photos: [Photo] = []
    public var certificateSite: String?
    public var certificatePreview: String?
    /// v2's `certificate.certificate_id`.
    public var certificateID: String?
    public var eventTimes: [EventTime] = []
    public var organization: String?
    public var activityName: String?
    public var activityMode: String?
    public var formFactor: String?
    public var textFields: [TextField] = []
    /// Why Entrupy asks for new photos of a `data_required` result (`batch_request.retake_reasons`).
    public var retakeReasons: [String] = []
    /// Where the customer stands in Entrupy's flow (`customer_state`), when it says.
    public var customerState: String?

    public init() {}

    /// The first photo's original (for a template's `photo_url`).
    public var photoURL: String? { photos.first?.original }

    /// When Entrupy says the item was submitted (`event_times.submitted_at`).
    public var submittedAt: Date? { eventTimes.first { $0.name == "submitted_at" }?.at }
}
