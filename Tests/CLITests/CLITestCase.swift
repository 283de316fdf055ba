import Foundation
import TestSupport
import XCTest

/// The built `glimt-pure` binary, end to end, as a user runs it: each test case gets a fresh
/// library folder (`XDG_DATA_HOME`) and settings of its own (`XDG_CONFIG_HOME`, under it).
class CLITestCase: XCTestCase {
    typealias Run = GlimtBinary.Run

    static let binary = GlimtBinary.url
    static let repositoryRoot = Fixtures.repository
    static let fixtures = Fixtures.root

    var library: URL!

    override func setUpWithError() throws {
        library = temporaryFolder(self)
    }

    @discardableResult
    func glimt(_ args: String...) throws -> Run { try glimt(args) }

    /// The settings file of the test's runs (the watched folders).
    var config: URL { library.appendingPathComponent("config/glimt/config") }

    /// `unsetting` removes variables (the test's `XDG_DATA_HOME` too); `directory` is where it runs.
    func start(
        _ args: [String], environment: [String: String] = [:], unsetting: [String] = [], in directory: URL? = nil,
        binary: URL = CLITestCase.binary
    ) throws -> Process {
        let own = ["XDG_DATA_HOME": library.path, "XDG_CONFIG_HOME": library.appendingPathComponent("config").path]
        return try GlimtBinary.start(
            args, environment: own.merging(environment) { _, new in new }, unsetting: unsetting, in: directory, binary: binary)
    }

    func fixture(_ path: String) -> String { Fixtures.path(path) }

    /// The status, output and error of `glimt-pure args...` run with `environment` added.
    func glimt(
        _ args: [String], environment: [String: String] = [:], unsetting: [String] = [], in directory: URL? = nil,
        binary: URL = CLITestCase.binary
    ) throws -> Run {
        finish(try start(args, environment: environment, unsetting: unsetting, in: directory, binary: binary))
    }

    /// Waits for a process from `start` to end: its status, output and error.
    func finish(_ p: Process) -> Run { GlimtBinary.finish(p) }
}
