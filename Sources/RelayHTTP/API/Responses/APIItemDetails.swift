import Foundation
import RelayModel

/// `details` of `GET /v1/items/{id}`: what Entrupy said about the item beyond its state
/// (`ItemDetails`). Every documented key is present (null or empty when Entrupy gave nothing).
struct APIItemDetails: Encodable, Sendable {
    struct Reason: Encodable, Sendable {
        let text: String
        @AlwaysPresent var image: String?
    }

    struct FlagInfo: Encodable, Sendable {
        @AlwaysPresent var id: String?
        @AlwaysPresent var label: String?
        @AlwaysPresent var message: String?
    }

    struct Photo: Encodable, Sendable {
        let original: String
        @AlwaysPresent var thumbnail: String?
    }

    struct EventTime: Encodable, Sendable {
        let name: String
        @AlwaysPresent var at: Date?
        @AlwaysPresent var display: String?
    }

    struct TextField: Encodable, Sendable {
        let name: String
        @AlwaysPresent var displayName: String?
        let content: String
        @AlwaysPresent var isIdentifier: Bool?

        enum CodingKeys: String, CodingKey {
            case name, displayName = "display_name", content, isIdentifier = "is_identifier"
        }
    }

    @AlwaysPresent var resultHeader: String?
    @AlwaysPresent var resultMessage: String?
    @AlwaysPresent var resultReason: String?
    @AlwaysPresent var initialResult: String?
    let reasons: [Reason]
    @AlwaysPresent var isFlaggable: Bool?
    @AlwaysPresent var flagInfo: FlagInfo?
    let photos: [Photo]
    @AlwaysPresent var certificateSite: String?
    @AlwaysPresent var certificatePreview: String?
    @AlwaysPresent var certificateID: String?
    let eventTimes: [EventTime]
    @AlwaysPresent var organization: String?
    @AlwaysPresent var activityName: String?
    @AlwaysPresent var activityMode: String?
    @AlwaysPresent var formFactor: String?
    let textFields: [TextField]
    let retakeReasons: [String]
    @AlwaysPresent var customerState: String?

    enum CodingKeys: String, CodingKey {
        case resultHeader = "result_header", resultMessage = "result_message", resultReason = "result_reason", initialResult = "initial_result", reasons
        case isFlaggable = "is_flaggable", flagInfo = "flag_info", photos, certificateSite = "certificate_site"
        case certificatePreview = "certificate_preview", certificateID = "certificate_id", eventTimes = "event_times"
        case organization, activityName = "activity_name", activityMode = "activity_mode", formFactor = "form_factor"
        case textFields = "text_fields", retakeReasons = "retake_reasons", customerState = "customer_state"
    }

    init(_ d: ItemDetails) {
        resultHeader = d.resultHeader
        resultMessage = d.resultMessage
        resultReason = d.resultReason
        initialResult = d.initialResult
        reasons = d.reasons.map { Reason(text: $0.text, image: $0.image) }
        isFlaggable = d.isFlaggable
        flagInfo = d.flagInfo.map { FlagInfo(id: $0.id, label: $0.label, message: $0.message) }
        photos = d.photos.map { Photo(original: $0.original, thumbnail: $0.thumbnail) }
        certificateSite = d.certificateSite
        certificatePreview = d.certificatePreview
        certificateID = d.certificateID
        eventTimes = d.eventTimes.map { EventTime(name: $0.name, at: $0.at, display: $0.display) }
        organization = d.organization
        activityName = d.activityName
        activityMode = d.activityMode
        formFactor = d.formFactor
        textFields = d.textFields.map { TextField(name: $0.name, displayName: $0.displayName, content: $0.content, isIdentifier: $0.isIdentifier) }
        retakeReasons = d.retakeReasons
        customerState = d.customerState
    }
}

/// `submitter` of `GET /v1/items/{id}`, for roles that may read people.
struct APISubmitter: Encodable, Sendable {
    let uniqueUserID: String
    @AlwaysPresent var email: String?
    @AlwaysPresent var firstName: String?
    @AlwaysPresent var lastName: String?

    enum CodingKeys: String, CodingKey {
        case uniqueUserID = "unique_user_id", email, firstName = "first_name", lastName = "last_name"
    }
}
