/// Why `migrate` refused to run. Each case is one clear line for the operator.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    case directoryNotFound(searched: [String])
    case badFileName(String)
    case duplicateVersion(Int)
    case emptyFile(String)
    case checksumMismatch(version: Int, name: String)
    case statementFailed(version: Int, name: String, message: String)
    case unknownVersions([Int])

    public var description: String {
        switch self {
        case .directoryNotFound(let searched):
            "cannot read the migrations directory \(searched.joined(separator: ", ")) (ENTRUPY_RELAY_MIGRATIONS_DIR)"
        case .badFileName(let name):
            "migration file \(name) is not named NNNN_name.sql"
        case .duplicateVersion(let version):
            "two migration files share version \(version)"
        case .emptyFile(let name):
            "migration file \(name) holds no SQL statement"
        case .checksumMismatch(let version, let name):
            "migration \(version) (\(name)) was changed after it was applied; restore the file and add a new migration instead"
        case .statementFailed(let version, let name, let message):
            "migration \(version) (\(name)) failed and was rolled back: \(message)"
        case .unknownVersions(let versions):
            "the database has migration(s) \(versions.map(String.init).joined(separator: ", ")) that this build does not know: it belongs to a newer release (or was changed by hand); nothing was applied"
        }
    }
}
