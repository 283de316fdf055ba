import Foundation

/// Where the baked `.glw` weight files are: `$GLIMT_WEIGHTS_DIR` when set (for trying freshly
/// exported weights without rebuilding), else this target's package resources.
public enum BakedWeights {
    public static func url(named name: String) -> URL {
        if let dir = ProcessInfo.processInfo.environment["GLIMT_WEIGHTS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent("\(name).glw")
        }
        return Bundle.module.bundleURL.appendingPathComponent("Resources").appendingPathComponent("\(name).glw")
    }
}
