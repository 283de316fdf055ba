import Foundation
import XCTest

/// The built `glimt-pure` binary, end to end, as a user runs it: each test case gets a fresh
/// library folder (`XDG_DATA_HOME`).
class CLITestCase: XCTestCase {
    struct Run {
        let status: Int32
        let out: String
        let err: String
    }

    static let binary: URL = Bundle.main.bundleURL.appendingPathComponent("glimt-pure")
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/GlimtPureTests/Fixtures")

    var library: URL!

    override func setUpWithError() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: library) }

    @discardableResult
    func glimt(_ args: String...) throws -> Run { try glimt(args) }

    func start(_ args: [String], environment: [String: String] = [:], binary: URL = CLITestCase.binary) throws -> Process {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = library.path
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return p
    }

    func fixture(_ path: String) -> String { Self.fixtures.appendingPathComponent(path).path }

    /// The status, output and error of `glimt-pure args...` run with `environment` added.
    func glimt(_ args: [String], environment: [String: String] = [:], binary: URL = CLITestCase.binary) throws -> Run {
        finish(try start(args, environment: environment, binary: binary))
    }

    /// Waits for a process from `start` to end: its status, output and error.
    func finish(_ p: Process) -> Run {
        let out = p.standardOutput as! Pipe, err = p.standardError as! Pipe
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }
}
