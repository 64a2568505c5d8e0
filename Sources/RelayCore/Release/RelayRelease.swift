/// The release this build is. The one place the version is written: `CHANGELOG.md` names each
/// release's commit, `deploy/package.sh` asks the built binary (`entrupy-relay --version`), and
/// the relay reports it (`relay_build_info`, `/readyz` on the operations port).
public enum RelayRelease {
    public static let version = "0.1.0"
}
