public enum Glimt {
    public static let version = "0.1.0"
}
