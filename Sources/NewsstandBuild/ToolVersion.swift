/// The version of the toolchain, recorded in build manifests (a new version rebuilds everything).
public enum ToolVersion {
    public static let current = "0.1.0"
}
