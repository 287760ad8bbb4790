/// rowserver's version, reported by `/health` and `rowserver --version`.
public enum RowserverVersion {
    public static let current = "0.1.0"
}
