import Foundation

/// The built `glimt-pure` binary, run as a user runs it.
public enum GlimtBinary {
    public struct Run {
        public let status: Int32
        public let out: String
        public let err: String
    }

    /// Beside the test bundle, where SwiftPM builds every product.
    public static let url = Bundle.main.bundleURL.appendingPathComponent("glimt-pure")

    /// Starts `binary args...` with `environment` added to this process's and the variables of
    /// `unsetting` removed from it, in `directory` (this process's when nil), with pipes for its
    /// output: wait for it with `finish`.
    public static func start(
        _ args: [String], environment: [String: String] = [:], unsetting: [String] = [], in directory: URL? = nil,
        binary: URL = url
    ) throws -> Process {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        for name in unsetting { env[name] = nil }
        p.environment = env
        if let directory { p.currentDirectoryURL = directory }
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        return p
    }

    /// Waits for a process from `start` to end: its status, output and error.
    public static func finish(_ p: Process) -> Run {
        let out = p.standardOutput as! Pipe, err = p.standardError as! Pipe
        // Both pipes are drained together, so a child filling one never blocks on the other.
        final class Drained: @unchecked Sendable { var data = Data() }
        let e = Drained()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            e.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e.data, as: UTF8.self))
    }

    /// `binary args...` to its end.
    public static func run(
        _ args: [String], environment: [String: String] = [:], unsetting: [String] = [], in directory: URL? = nil,
        binary: URL = url
    ) throws -> Run {
        finish(try start(args, environment: environment, unsetting: unsetting, in: directory, binary: binary))
    }
}
