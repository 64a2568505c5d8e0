import Foundation
import Hummingbird
import RelayCore

extension ItemsAPIController {
    static let importFields: Set<String> = ["entrupy_id", "customer_item_id"]

    /// `POST /v1/items/import {"customer_item_id": ...}` or `{"entrupy_id": ...}`: fetches an
    /// item the relay may never have seen and answers with it, 201 when it is new here, 200
    /// when it was already known (then re-fetched); 404 when Entrupy has no such item.
    @Sendable func importItem(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let target = try await Self.importTarget(request)
        guard let importer else {
            throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay (ENTRUPY_API_TOKEN)")
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

    /// Exactly one of the two identifiers, a non-blank string of at most 256 characters.
    static func importTarget(_ request: Request) async throws -> ItemImportTarget {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: 16_384)
        } catch {
            throw APIError(.contentTooLarge, "request body exceeds 16384 bytes")
        }
        guard let json = try? JSONValue.parse(Array(buffer.readableBytesView)), let object = json.objectValue else {
            throw APIError(.badRequest, "the body must be a JSON object with entrupy_id or customer_item_id")
        }
        if let unknown = object.keys.sorted().first(where: { !importFields.contains($0) }) {
            throw APIError(.badRequest, "field \"\(unknown.prefix(64))\": unknown field")
        }
        guard object.count == 1, let (name, value) = object.first else {
            throw APIError(.badRequest, "give exactly one of entrupy_id and customer_item_id")
        }
        guard let text = value.stringValue?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 256,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(.badRequest, "field \"\(name)\": must be a non-blank string of at most 256 characters, without control characters")
        }
        return name == "entrupy_id" ? .entrupyID(text) : .customerItemID(text)
    }
}

extension ItemImportTarget {
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
