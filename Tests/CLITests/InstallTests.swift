import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `tools/install.sh`: the installed binary works once the build folder is gone, and says where
/// it looked when its weights are missing; the daily scan's systemd units run it; a release
/// build already there is reused, not built again.
final class InstallTests: CLITestCase {
    /// `systemd-analyze verify` of units, with nothing to say of them.
    func verify(_ units: [String], man: Bool = false) throws {
        let run = try GlimtBinary.run(["verify"] + (man ? [] : ["--man=no"]) + units, binary: URL(fileURLWithPath: "/usr/bin/systemd-analyze"))
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(run.err, "", "systemd-analyze has nothing to say of \(units)")
    }

    func testInstalledBinaryRunsWithoutTheBuildFolder() throws {
        // A copy of this build's products stands in for the build folder, so it can be removed.
        let build = library.appendingPathComponent("build"), prefix = library.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        let products = CLITestCase.binary.deletingLastPathComponent()
        for item in ["glimt-pure", "glimt-pure_SFaceWeights.resources", "glimt-pure_GlimtPure.resources"] {
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
        for file in [
            "share/man/man1/glimt-pure.1", "share/bash-completion/completions/glimt-pure", "share/zsh/site-functions/_glimt-pure",
            "share/fish/vendor_completions.d/glimt-pure.fish",
        ] {
            let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(
                text.contains("scan") && text.contains("library") && text.contains("overwrite"), "\(file) covers the commands and their options")
        }
        let faces = try glimt(["faces", "--json", fixture("yunet/two_people.png")], binary: installed)
        XCTAssertEqual(faces.status, 0, faces.err)
        let photo = try JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as! [String: Any]
        XCTAssertEqual((photo["faces"] as! [Any]).count, 2)
        let embed = try glimt(["embed", fixture("sface/obama.png")], binary: installed)
        XCTAssertEqual(embed.status, 0, embed.err)
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: Data(embed.out.utf8)) as! [String: Any])["embedding"] as! [Any]).count, 128)

        // The daily scan's units, beside the binary (systemd looks in PREFIX/lib/systemd/user for
        // PREFIX /usr/local; install.sh says how to link them from elsewhere).
        let units = prefix.appendingPathComponent("lib/systemd/user")
        let service = try String(contentsOf: units.appendingPathComponent("glimt-pure-scan.service"), encoding: .utf8)
        XCTAssertTrue(service.contains("\nExecStart=\(installed.path) scan -q --if-idle\n"), service)
        for line in ["Nice=19", "IOSchedulingClass=idle", "CPUWeight=idle", "SuccessExitStatus=130"] {
            XCTAssertTrue(service.contains("\n\(line)\n"), line)
        }
        let timer = try String(contentsOf: units.appendingPathComponent("glimt-pure-scan.timer"), encoding: .utf8)
        for line in ["OnCalendar=daily", "Persistent=true", "RandomizedDelaySec=1h", "WantedBy=timers.target"] {
            XCTAssertTrue(timer.contains("\n\(line)\n"), line)
        }
        try verify([units.appendingPathComponent("glimt-pure-scan.service").path, units.appendingPathComponent("glimt-pure-scan.timer").path])

        // The review page's own files, from PREFIX/share/glimt-pure/page; without one of them,
        // one line says which and where it looked, and nothing is written.
        XCTAssertEqual(try glimt(["scan", fixture("analysis/two_people.mp4"), "-q"], binary: installed).status, 0)
        let review = try glimt(["review", "--out", library.appendingPathComponent("review").path], binary: installed)
        XCTAssertEqual(review.status, 0, review.err)
        XCTAssertEqual(
            try Data(contentsOf: library.appendingPathComponent("review/assets/review.js")),
            try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Sources/GlimtPure/Review/Page/review.js")))
        try FileManager.default.removeItem(at: prefix.appendingPathComponent("share/glimt-pure/page/review.js"))
        let noPage = try glimt(["review", "--out", library.appendingPathComponent("review-2").path], binary: installed)
        XCTAssertEqual(noPage.status, 1)
        XCTAssertEqual(noPage.err.split(separator: "\n").count, 1, noPage.err)
        XCTAssertTrue(
            noPage.err.contains("review.js is missing") && noPage.err.contains(prefix.appendingPathComponent("share/glimt-pure/page").path),
            noPage.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("review-2").path))

        // Without its weights it says, in one line, what is missing and where it looked.
        try FileManager.default.removeItem(at: prefix.appendingPathComponent("share/glimt-pure/sface.glw"))
        let missing = try glimt(["embed", fixture("sface/obama.png")], binary: installed)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err.split(separator: "\n").count, 1, missing.err)
        XCTAssertTrue(missing.err.contains("sface.glw are missing"), missing.err)
        XCTAssertTrue(missing.err.contains(prefix.appendingPathComponent("share/glimt-pure").path), missing.err)
        // GLIMT_WEIGHTS_DIR points elsewhere.
        let elsewhere = try glimt(
            ["embed", fixture("sface/obama.png")],
            environment: ["GLIMT_WEIGHTS_DIR": products.appendingPathComponent("glimt-pure_SFaceWeights.resources/Resources").path], binary: installed
        )
        XCTAssertEqual(elsewhere.status, 0, elsewhere.err)
    }

    /// A release build newer than everything it is made from is installed as it is: no swift
    /// is run. Once a source is newer, the build is brought up to date first. (A copy of the
    /// repository's layout with this build's products, and a `swift` that only says it ran.)
    func testAnUpToDateBuildIsReusedAndAStaleOneRebuilt() throws {
        let repo = library.appendingPathComponent("repo"), prefix = library.appendingPathComponent("prefix"),
            bin = library.appendingPathComponent("bin")
        for folder in ["tools/setup", "Sources/GlimtCore", "Plugins", "packaging", ".build/release"] {
            try FileManager.default.createDirectory(at: repo.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["tools/install.sh", "tools/setup.sh", "tools/setup/apt-need.sh", "packaging/systemd"] {
            try FileManager.default.copyItem(at: Self.repositoryRoot.appendingPathComponent(file), to: repo.appendingPathComponent(file))
        }
        try "swift-tools-version:5.9".write(to: repo.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "".write(to: repo.appendingPathComponent("Sources/GlimtCore/A.swift"), atomically: true, encoding: .utf8)
        for item in ["glimt-pure", "glimt-pure_SFaceWeights.resources", "glimt-pure_GlimtPure.resources"] {
            try FileManager.default.copyItem(
                at: Self.binary.deletingLastPathComponent().appendingPathComponent(item), to: repo.appendingPathComponent(".build/release/\(item)"))
        }
        // The sources an hour older than the build.
        var old = utimbuf(actime: time(nil) - 3600, modtime: time(nil) - 3600)
        for file in ["Package.swift", "Sources/GlimtCore/A.swift", "Sources/GlimtCore", "Sources", "Plugins"] {
            XCTAssertEqual(utime(repo.appendingPathComponent(file).path, &old), 0)
        }
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, script) in [("swift", "#!/bin/sh\necho \"swift $*\" >&2\nexit 9\n"), ("sudo", "#!/bin/sh\nexit 9\n")] {
            try script.write(to: bin.appendingPathComponent(name), atomically: true, encoding: .utf8)
            XCTAssertEqual(chmod(bin.appendingPathComponent(name).path, 0o755), 0)
        }
        func install() throws -> Run {
            try GlimtBinary.run(
                [repo.appendingPathComponent("tools/install.sh").path, prefix.path],
                environment: ["PATH": bin.path + ":/usr/bin:/bin"], unsetting: ["GLIMT_BUILD_DIR", "GLIMT_TARGET_CPU"],
                binary: URL(fileURLWithPath: "/bin/bash"))
        }
        let reused = try install()
        XCTAssertEqual(reused.status, 0, reused.err)
        XCTAssertTrue(
            reused.err.contains("install: reusing .build/release/glimt-pure (nothing in Sources/, Plugins/ or Package.swift is newer)"), reused.err)
        XCTAssertFalse(reused.err.contains("swift build"), reused.err)
        XCTAssertEqual(try glimt(["--version"], binary: prefix.appendingPathComponent("bin/glimt-pure")).status, 0)

        try "// edited".write(to: repo.appendingPathComponent("Sources/GlimtCore/A.swift"), atomically: true, encoding: .utf8)
        let stale = try install()
        XCTAssertNotEqual(stale.status, 0)
        XCTAssertTrue(
            stale.err.contains("swift build -c release --product glimt-pure"), "a newer source: the build is brought up to date: \(stale.err)")
    }
}
