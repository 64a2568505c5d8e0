/// The release this build is. The one place the version is written: `CHANGELOG.md` names each
/// release's commit, `deploy/package.sh` asks the built binary (`entrupy-relay --version`), and
/// the relay reports it (`relay_build_info`, `/readyz` on the operations port).
public enum RelayRelease {
    /// `~dev` until released: Debian orders 0.2.0~dev before 0.2.0, so the release upgrades it.
    public static let version = "0.2.0~dev"
}
