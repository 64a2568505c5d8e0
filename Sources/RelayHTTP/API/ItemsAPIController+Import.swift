import Foundation
import Hummingbird
import RelayModel

extension ItemsAPIController {
    static let importFields: Set<String> = ["entrupy_id", "customer_item_id"]

    /// `POST /v1/items/import {"customer_item_id": ...}` or `{"entrupy_id": ...}`: fetches an
    /// item the relay may never have seen and answers with it, 201 when it is new here, 200
    /// when it was already known (then re-fetched); 404 when Entrupy has no such item.
    @Sendable func importItem(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let target = try await Self.importTarget(request)
        guard let importer else {
            throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay (ENTRUPY_RELAY_ENTRUPY_API_TOKEN)")
        }
        let imported: (entrupyID: String, created: Bool)
        do {
            imported = try await importer.importItem(target)
        } catch .notFound {
            throw APIError(.notFound, "Entrupy has no item with that \(target.fieldName) (\"\(target.value.prefix(256))\")")
        } catch .unavailable(let reason) {
            context.logger.warning("api: import failed", metadata: ["error": "\(reason)"])
            throw APIError(.serviceUnavailable, "Entrupy could not be asked now: \(reason)", headers: [.retryAfter: "5"])
        }
        context.logger.info("api: item imported", metadata: ["entrupy_id": "\(imported.entrupyID)", "by": "\(caller.name)",
                                                             "new": "\(imported.created)"])
        guard let detail = try await items.detail(imported.entrupyID) else { throw Self.notFound(imported.entrupyID) }
        return try JSONResponse.make(APIItemDetail(detail.visible(to: caller.role)), status: imported.created ? .created : .ok)
    }

    /// Exactly one of the two identifiers, checked as `ItemImportTarget(field:value:)` says.
    static func importTarget(_ request: Request) async throws -> ItemImportTarget {
        let object = try await JSONRequestBody.object(request, maxBytes: 16_384, fields: importFields,
                                                      expected: "the body must be a JSON object with entrupy_id or customer_item_id")
        guard object.count == 1, let (name, value) = object.first else {
            throw APIError(.badRequest, "give exactly one of entrupy_id and customer_item_id")
        }
        return try ItemImportTarget(field: name, value: value.stringValue)
    }
}

extension ItemImportTarget {
    /// `entrupy_id` or `customer_item_id`: at most 256 characters (Unicode scalars, as JSON
    /// Schema counts them), no control characters, not blank; used without the spaces around
    /// it. From the API's JSON or the console's form alike (the OpenAPI document's `ItemKey`).
    init(field: String, value: String?) throws {
        guard let value, value.unicodeScalars.count <= 256,
              !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
              case let text = value.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            throw APIError(.badRequest, "field \"\(field.prefix(64))\": must be a non-blank string of at most 256 characters, without control characters")
        }
        self = field == "entrupy_id" ? .entrupyID(text) : .customerItemID(text)
    }

    var fieldName: String {
        switch self {
        case .entrupyID: "entrupy_id"
        case .customerItemID: "customer_item_id"
        }
    }

    var value: String {
        switch self {
        case .entrupyID(let id), .customerItemID(let id): id
        }
    }
}
