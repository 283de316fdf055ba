import Foundation
import XCTest
import GlimtPure

/// `tools/install.sh`: the installed binary works once the build folder is gone, and says where
/// it looked when its weights are missing.
final class InstallTests: CLITestCase {

    func testInstalledBinaryRunsWithoutTheBuildFolder() throws {
        // A copy of this build's products stands in for the build folder, so it can be removed.
        let build = library.appendingPathComponent("build"), prefix = library.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        let products = CLITestCase.binary.deletingLastPathComponent()
        for item in ["glimt-pure", "glimt-pure_SFaceWeights.resources"] {
            try FileManager.default.copyItem(at: products.appendingPathComponent(item), to: build.appendingPathComponent(item))
        }
        let install = Process()
        install.executableURL = Self.repositoryRoot.appendingPathComponent("tools/install.sh")
        install.arguments = [prefix.path]
        install.environment = ProcessInfo.processInfo.environment.merging(["GLIMT_BUILD_DIR": build.path]) { _, new in new }
        install.standardOutput = Pipe()
        install.standardError = Pipe()
        try install.run()
        install.waitUntilExit()
        XCTAssertEqual(install.terminationStatus, 0)
        try FileManager.default.removeItem(at: build)

        let installed = prefix.appendingPathComponent("bin/glimt-pure")
        for file in ["share/man/man1/glimt-pure.1", "share/bash-completion/completions/glimt-pure", "share/zsh/site-functions/_glimt-pure",
                     "share/fish/vendor_completions.d/glimt-pure.fish"] {
            let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(text.contains("scan") && text.contains("library") && text.contains("overwrite"), "\(file) covers the commands and their options")
        }
        let faces = try glimt(["faces", "--json", fixture("yunet/two_people.png")], binary: installed)
        XCTAssertEqual(faces.status, 0, faces.err)
        let photo = try JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as! [String: Any]
        XCTAssertEqual((photo["faces"] as! [Any]).count, 2)
        let embed = try glimt(["embed", fixture("sface/obama.png")], binary: installed)
        XCTAssertEqual(embed.status, 0, embed.err)
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: Data(embed.out.utf8)) as! [String: Any])["embedding"] as! [Any]).count, 128)

        // A kernel variant as the Debian package lays it out, PREFIX/lib/glimt-pure/glimt-pure-VARIANT,
        // finds the weights in PREFIX/share/glimt-pure too.
        let variant = prefix.appendingPathComponent("lib/glimt-pure/glimt-pure-\(KernelChoice.running.rawValue)")
        try FileManager.default.createDirectory(at: variant.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: installed, to: variant)
        let fromVariant = try glimt(["embed", fixture("sface/obama.png")], binary: variant)
        XCTAssertEqual(fromVariant.status, 0, fromVariant.err)

        // Without its weights it says, in one line, what is missing and where it looked.
        try FileManager.default.removeItem(at: prefix.appendingPathComponent("share/glimt-pure/sface.glw"))
        let missing = try glimt(["embed", fixture("sface/obama.png")], binary: installed)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err.split(separator: "\n").count, 1, missing.err)
        XCTAssertTrue(missing.err.contains("sface.glw are missing"), missing.err)
        XCTAssertTrue(missing.err.contains(prefix.appendingPathComponent("share/glimt-pure").path), missing.err)
        // GLIMT_WEIGHTS_DIR points elsewhere.
        let elsewhere = try glimt(["embed", fixture("sface/obama.png")], environment: ["GLIMT_WEIGHTS_DIR": products.appendingPathComponent("glimt-pure_SFaceWeights.resources/Resources").path], binary: installed)
        XCTAssertEqual(elsewhere.status, 0, elsewhere.err)
    }
}
