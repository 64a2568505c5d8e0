import RelayModel
import EntrupyAPI
import RelayHTTP
import RelayStore
import RelayWorker

/// Imports through the reconcile pipeline (source `manual`: support's own request, so it takes
/// the interactive share of the API budget, and rules fire as for any change).
struct PipelineItemImporter: ItemImporting {
    let pipeline: ReconcilePipeline

    func importItem(_ target: ItemImportTarget) async throws(ItemImportError) -> (entrupyID: String, created: Bool) {
        let wanted: ReconcilePipeline.Target = switch target {
        case .entrupyID(let id): .entrupyID(id)
        case .customerItemID(let id): .customerItemID(id)
        }
        do {
            // A request, not a job's run: its deliveries go in for any worker (no follow-up lease).
            let result = try await pipeline.reconcile(wanted, source: .manual, followUps: nil)
            return (result.entrupyID, result.transitions.contains { $0.kind == .itemCreated })
        } catch EntrupyAPIError.notFound {
            throw .notFound
        } catch let error as EntrupyAPIError {
            throw .unavailable(error.description)
        } catch {
            throw .unavailable("the item could not be stored: \(StoreFailure.describe(error))")
        }
    }
}
