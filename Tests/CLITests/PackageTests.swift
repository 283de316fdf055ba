import Foundation
import GlimtPure
import TensorLite
import TestSupport
import XCTest

/// The Debian package from tools/package/package.sh (dist/glimt-pure_*_amd64.deb), as a user without
/// Swift gets it: what it holds and depends on, what lintian says of it, each kernel variant's
/// models held to the golden fixtures, and, as root, installed with apt-get, run with the
/// toolchain and the build folders out of sight, and removed leaving nothing but the user's
/// library. tools/package/package.sh runs once for all of them (one release build, in its own
/// incremental build folder), so they run in CI (CI=true, as root) and with
/// GLIMT_PACKAGE_TESTS=1, and are skipped otherwise.
final class PackageTests: CLITestCase {
    static let enabled = ContinuousIntegration.isRunning || ProcessInfo.processInfo.environment["GLIMT_PACKAGE_TESTS"] == "1"
    static let dist = repositoryRoot.appendingPathComponent("dist")

    /// What the package must hold, beyond its documentation's folder.
    static let files = [
        "/usr/bin/glimt-pure", "/usr/share/glimt-pure/sface.glw", "/usr/share/glimt-pure/yunet.glw", "/usr/share/glimt-pure/iris.glw",
        "/usr/share/glimt-pure/page/review.html",
        "/usr/share/glimt-pure/page/palette.css", "/usr/share/glimt-pure/page/review.css", "/usr/share/glimt-pure/page/review.js",
        "/usr/share/glimt-pure/page/choices.js", "/usr/share/man/man1/glimt-pure.1.gz",
        "/usr/share/bash-completion/completions/glimt-pure", "/usr/share/zsh/vendor-completions/_glimt-pure",
        "/usr/share/fish/vendor_completions.d/glimt-pure.fish", "/usr/share/doc/glimt-pure/copyright",
        "/usr/share/doc/glimt-pure/changelog.Debian.gz", "/usr/share/doc/glimt-pure/changelog.gz",
        "/usr/lib/systemd/user/glimt-pure-scan.service", "/usr/lib/systemd/user/glimt-pure-scan.timer",
    ]
    /// The faster variants of the face models the binary holds beside its portable code, each with
    /// the instructions its code must use and those it must not: the AVX2 one runs on Haswell and
    /// Zen 1 to 3, which have no `vpdpbusd`, and nothing but a variant may use ymm or zmm registers
    /// (the rest runs on every x86-64, which has neither).
    static let variants: [(KernelVariant, uses: String, never: [String])] = [
        (.avx512, "%zmm", []),
        (.avx2vnni, "{vex} vpdpbusd", ["%zmm"]),
        (.avx2, "%ymm", ["%zmm", "vpdpbusd"]),
    ]
    /// The installed size the package must stay within, in KiB: one binary, the weights and the page.
    static let installedSizeLimit = 80 * 1024
    /// lintian's warnings that stay, each explained in docs/packaging.md; any other fails.
    static let acceptedWarnings = ["initial-upload-closes-no-bugs"]

    /// tools/package/package.sh, once for every test here: the package, or why there is none.
    private static let built: Result<URL, Error> = Result {
        let started = Date()
        let run = try GlimtBinary.run(
            [repositoryRoot.appendingPathComponent("tools/package/package.sh").path], in: repositoryRoot,
            binary: URL(fileURLWithPath: "/bin/bash"))
        guard run.status == 0, let line = run.out.split(separator: "\n").last else {
            throw PackageFailed(
                description: "tools/package/package.sh failed (\(run.status)):\n" + run.err.split(separator: "\n").suffix(30).joined(separator: "\n"))
        }
        print("PackageTests: tools/package/package.sh took \(Int(Date().timeIntervalSince(started))) s:\n" + run.err)
        return repositoryRoot.appendingPathComponent(String(line))
    }

    struct PackageFailed: Error, CustomStringConvertible { let description: String }

    private func deb() throws -> URL {
        guard Self.enabled else {
            throw XCTSkip(
                "the Debian package is built and tested in CI, or with GLIMT_PACKAGE_TESTS=1 (tools/package/package.sh makes a release build)")
        }
        let deb = try Self.built.get()
        XCTAssertEqual(deb.deletingLastPathComponent().path, Self.dist.path)
        XCTAssertTrue(deb.lastPathComponent.hasPrefix("glimt-pure_\(Glimt.version)-1_amd64.deb"), deb.path)
        return deb
    }

    private func run(_ args: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Run {
        try GlimtBinary.run(Array(args.dropFirst()), environment: environment, in: directory, binary: URL(fileURLWithPath: args[0]))
    }

    /// The libraries a binary loads, as ldd resolves them.
    private func libraries(_ binary: String) throws -> [String] {
        let ldd = try run(["/usr/bin/ldd", binary])
        XCTAssertEqual(ldd.status, 0, ldd.err)
        return ldd.out.split(separator: "\n").compactMap { line in line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init) }
    }

    /// The Debian packages of files (through /lib and /usr/lib alike, as usrmerge has them):
    /// one dpkg -S for all of them. A file no package holds is missing from the answer.
    private func packages(of files: Set<String>) throws -> [String: String] {
        var names: [String: String] = [:]
        for file in files {
            names[file] = file
            names[URL(fileURLWithPath: file).resolvingSymlinksInPath().path] = file
            names[file.replacingOccurrences(of: "/usr/lib/", with: "/lib/")] = file
            if file.hasPrefix("/lib/") { names["/usr" + file] = file }
        }
        let s = try run(["/usr/bin/dpkg", "-S"] + names.keys.sorted())
        var owners: [String: String] = [:]
        for line in s.out.split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            let path = String(line[colon.upperBound...]), package = line[..<colon.lowerBound].split(separator: ":")[0]
            if let file = names[path] { owners[file] = String(package) }
        }
        return owners
    }

    /// Every library a binary loads belongs to a Debian package, none to a Swift toolchain.
    private func checkLibraries(_ binary: String) throws {
        let libs = try libraries(binary)
        XCTAssertGreaterThan(libs.count, 10, binary)
        let owners = try packages(of: Set(libs))
        for lib in libs {
            XCTAssertFalse(lib.contains("swift") || lib.hasPrefix("/opt/"), "\(binary) loads \(lib)")
            XCTAssertNotNil(owners[lib], "\(binary) loads \(lib), which no Debian package holds")
        }
    }

    /// The package unpacked into a folder: its files in place as they would be installed.
    private func unpacked() throws -> URL {
        let root = library.appendingPathComponent("unpacked")
        let x = try run(["/usr/bin/dpkg-deb", "-x", try deb().path, root.path])
        XCTAssertEqual(x.status, 0, x.err)
        return root
    }

    func testThePackageHoldsItsFilesDependsOnItsLibrariesAndLintianFindsNoErrors() throws {
        let deb = try deb()
        let contents = try run(["/usr/bin/dpkg-deb", "-c", deb.path])
        XCTAssertEqual(contents.status, 0, contents.err)
        var listed: [String: String] = [:]
        for line in contents.out.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let path = words.last, path.hasPrefix("./") else { continue }
            listed[String(path.dropFirst()).replacingOccurrences(of: "/$", with: "", options: .regularExpression)] = "\(words[0]) \(words[1])"
        }
        for file in Self.files { XCTAssertNotNil(listed[file], "the package holds \(file)") }
        XCTAssertEqual(listed["/usr/bin/glimt-pure"], "-rwxr-xr-x root/root")
        XCTAssertEqual(listed.keys.filter { !$0.hasPrefix("/usr") && !$0.isEmpty }, [], "everything under /usr")
        XCTAssertEqual(
            listed.filter { $0.value.hasPrefix("-rwx") }.keys.sorted(), ["/usr/bin/glimt-pure"], "one binary: the Swift runtime and Foundation once")
        let size = try run(["/usr/bin/dpkg-deb", "-f", deb.path, "Installed-Size"])
        XCTAssertLessThanOrEqual(Int(size.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max, Self.installedSizeLimit, size.out)

        // Depends: the packages of the sonames the binaries load (FFmpeg's, SQLite's), and
        // nothing of Swift's.
        let info = try run(["/usr/bin/dpkg-deb", "-f", deb.path, "Package", "Version", "Architecture", "Depends", "Maintainer", "Description"])
        XCTAssertEqual(info.status, 0, info.err)
        XCTAssertTrue(info.out.hasPrefix("Package: glimt-pure\nVersion: \(Glimt.version)-1\nArchitecture: amd64\nDepends: "), info.out)
        let depends = info.out.components(separatedBy: "Depends: ")[1].components(separatedBy: "\n")[0]
            .components(separatedBy: ", ").map { String($0.split(separator: " ")[0]) }
        let root = try unpacked()
        let needed = try run(["/usr/bin/readelf", "-d", root.appendingPathComponent("usr/bin/glimt-pure").path]).out
            .split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { $0.split(separator: "[").last?.dropLast() }.map(String.init)
        for soname in needed where soname.hasPrefix("libav") || soname.hasPrefix("libsw") || soname.hasPrefix("libsqlite") {
            let file = try XCTUnwrap(
                try libraries(root.appendingPathComponent("usr/bin/glimt-pure").path).first { $0.hasSuffix("/" + soname) }, soname)
            let owner = try XCTUnwrap(try packages(of: [file])[file], soname)
            XCTAssertTrue(depends.contains(owner), "\(soname) is \(owner)'s: Depends says \(depends)")
        }
        XCTAssertEqual(Set(needed.filter { $0.hasPrefix("libav") || $0.hasPrefix("libsw") }).count, 5, "\(needed)")
        for package in ["libavcodec59", "libavformat59", "libavutil57", "libswscale6", "libswresample4", "libsqlite3-0", "libc6"] {
            XCTAssertTrue(depends.contains(package), "Depends: \(depends)")
        }
        XCTAssertFalse(depends.contains { $0.contains("swift") }, "\(depends)")
        try checkLibraries(root.path + "/usr/bin/glimt-pure")

        // The md5sums match the files; the copyright is DEP-5 with the models' licences.
        let control = library.appendingPathComponent("control")
        XCTAssertEqual(try run(["/usr/bin/dpkg-deb", "-e", deb.path, control.path]).status, 0)
        let sums = try run(["/usr/bin/md5sum", "--check", "--quiet", control.appendingPathComponent("md5sums").path], in: root)
        XCTAssertEqual(sums.status, 0, sums.out + sums.err)
        XCTAssertEqual(
            try String(contentsOf: control.appendingPathComponent("md5sums"), encoding: .utf8).split(separator: "\n").count,
            listed.keys.filter { $0.hasPrefix("/usr/") && !(listed[$0] ?? "").hasPrefix("d") }.count, "every file has its sum")
        let copyright = try String(contentsOf: root.appendingPathComponent("usr/share/doc/glimt-pure/copyright"), encoding: .utf8)
        XCTAssertTrue(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        for paragraph in [
            "Files: Sources/SFaceWeights/Resources/sface.glw", "Files: Sources/SFaceWeights/Resources/yunet.glw",
            "Files: Sources/SFaceWeights/Resources/iris.glw", "License: Apache-2.0\n",
            "License: MIT\n",
            "/usr/share/common-licenses/Apache-2.0", "Permission is hereby granted, free of charge",
        ] {
            XCTAssertTrue(copyright.contains(paragraph), paragraph)
        }
        let changelog = try run(["/bin/sh", "-c", "gunzip -c '\(root.path)/usr/share/doc/glimt-pure/changelog.Debian.gz'"])
        XCTAssertTrue(changelog.out.hasPrefix("glimt-pure (\(Glimt.version)-1) unstable; urgency=medium\n"), changelog.out)
        let manual = try run(["/bin/sh", "-c", "gunzip -c '\(root.path)/usr/share/man/man1/glimt-pure.1.gz'"]).out
        for section in [".SS folders", ".SS status", ".SS merge", "\\-\\-shard", "GLIMT_KERNELS"] { XCTAssertTrue(manual.contains(section), section) }

        // lintian: no errors, and no warning but those docs/packaging.md explains.
        let lintian = try run(["/usr/bin/lintian", "--fail-on", "error", deb.path])
        XCTAssertEqual(lintian.status, 0, lintian.out + lintian.err)
        let tags = lintian.out.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        XCTAssertEqual(tags.filter { $0.hasPrefix("E: ") }, [], lintian.out)
        for warning in tags where !Self.acceptedWarnings.contains(where: { warning.contains(": \($0)") }) {
            XCTFail("a lintian warning docs/packaging.md does not explain: \(warning)")
        }
    }

    /// Each kernel variant the package holds, forced with GLIMT_KERNELS, gives the golden
    /// results: SFace's embeddings as onnxruntime's, YuNet's faces as OpenCV's. One the CPU
    /// cannot run is refused in one line.
    func testEveryKernelVariantOfThePackageGivesTheGoldenResults() throws {
        let root = try unpacked()
        let front = root.appendingPathComponent("usr/bin/glimt-pure")
        let flags = CPUFlags.current() ?? []
        var ran: [String] = []
        for variant in KernelVariant.fastestFirst {
            let environment = [KernelChoice.environmentKey: variant.rawValue]
            let version = try glimt(["--version"], environment: environment, binary: front)
            guard variant.missing(from: flags).isEmpty else {
                XCTAssertEqual(version.status, 1)
                XCTAssertTrue(
                    version.err.hasPrefix("glimt-pure: GLIMT_KERNELS=\(variant.rawValue): this CPU cannot run the \(variant.name) kernels"),
                    version.err)
                continue
            }
            XCTAssertEqual(version.status, 0, version.err)
            XCTAssertTrue(version.out.hasSuffix("\nkernels: \(variant.name) (\(variant.level)), set by GLIMT_KERNELS\n"), version.out)
            let binary: ([String]) throws -> GlimtBinary.Run = { try self.glimt($0, environment: environment, binary: front) }
            try GoldenModels.checkEmbeddings(binary, "the package's \(variant.name) kernels")
            try GoldenModels.checkFaces(binary, "the package's \(variant.name) kernels")
            ran.append(variant.name)
        }
        XCTAssertTrue(ran.contains("portable"), "every x86-64 runs the portable build")
        // Unforced, the fastest the CPU runs.
        let best = try XCTUnwrap(KernelVariant.fastestFirst.first { $0.missing(from: flags).isEmpty })
        XCTAssertTrue(try glimt(["--version"], binary: front).out.hasSuffix("\nkernels: \(best.name) (\(best.level))\n"))
        print("the package's kernels checked against the golden fixtures: \(ran.joined(separator: ", "))")
    }

    /// Each variant's code uses the instructions of its level and nothing of a higher one, and
    /// the rest of the binary (its portable code, the Swift runtime, Foundation) no ymm or zmm
    /// register: it must start on any x86-64 and choose. The binary as linked, before stripping,
    /// names each function: a variant's modules' own and the generic code specialised for their
    /// types (their mangled names hold `17TensorLite_avx512`), and its copies of other generic
    /// code (`NAME.avx512`, as package.sh renames them).
    func testEachVariantUsesTheVectorRegistersOfItsLevelOnly() throws {
        _ = try deb()
        let linked = Self.repositoryRoot.appendingPathComponent(".build/package/glimt-pure")
        let code = try run(["/usr/bin/objdump", "-d", "--no-show-raw-insn", linked.path])
        XCTAssertEqual(code.status, 0, code.err)
        func variant(of function: Substring) -> KernelVariant? {
            Self.variants.map(\.0).first { v in
                let modules = ["TensorLite_", "Faces_"].map { "\($0.count + v.rawValue.count)\($0)\(v.rawValue)" }
                return function.hasSuffix(".\(v.rawValue)") || modules.contains { function.contains($0) }
            }
        }
        var current: KernelVariant? = nil
        var function: Substring = ""
        var functions: [KernelVariant: Int] = [:], used: [KernelVariant: Int] = [:], strays: [String] = []
        var beyond: [KernelVariant: [String]] = [:]
        for line in code.out.split(separator: "\n") {
            if line.hasSuffix(">:"), let open = line.firstIndex(of: "<") {
                function = line[line.index(after: open)..<line.index(line.endIndex, offsetBy: -2)]
                current = variant(of: function)
                if let current { functions[current, default: 0] += 1 }
                continue
            }
            guard let v = current, let level = Self.variants.first(where: { $0.0 == v }) else {
                if strays.count < 3, line.contains("%ymm") || line.contains("%zmm") { strays.append("\(function): \(line)") }
                continue
            }
            if line.contains(level.uses) { used[v, default: 0] += 1 }
            for never in level.never where line.contains(never) && beyond[v, default: []].count < 3 {
                beyond[v, default: []].append("\(function): \(line)")
            }
        }
        XCTAssertEqual(strays, [], "code outside the variants uses ymm or zmm registers")
        for (v, uses, _) in Self.variants {
            XCTAssertGreaterThan(functions[v] ?? 0, 100, "the \(v.name) variant's functions")
            XCTAssertGreaterThan(used[v] ?? 0, 0, "the \(v.name) variant uses \(uses)")
            XCTAssertEqual(beyond[v] ?? [], [], "the \(v.name) variant uses instructions beyond its level")
        }
    }

    /// Installed with apt-get as root (as the README says), it runs with no Swift toolchain in
    /// sight (the toolchain, the build folders and the repository's .build hidden in a mount
    /// namespace of its own, the environment emptied); its daily scan's units pass
    /// systemd-analyze; removed, it leaves nothing of itself, and the user's library.
    func testThePackageInstallsRunsWithoutSwiftAndRemovesCleanly() throws {
        let deb = try deb()
        guard getuid() == 0 else { throw ContinuousIntegration.cannotRun("installing the package needs root (CI runs as root)") }
        guard try run(["/usr/bin/dpkg-query", "-W", "glimt-pure"]).status != 0 else {
            throw ContinuousIntegration.cannotRun("glimt-pure is installed on this machine already, and this test would remove it")
        }
        let apt = ["DEBIAN_FRONTEND": "noninteractive"]
        addTeardownBlock {
            _ = try? GlimtBinary.run(["remove", "-y", "-qq", "glimt-pure"], environment: apt, binary: URL(fileURLWithPath: "/usr/bin/apt-get"))
        }
        let started = Date()
        let install = try run(["/usr/bin/apt-get", "install", "-y", "-qq", "--no-install-recommends", deb.path], environment: apt)
        XCTAssertEqual(install.status, 0, install.out + install.err)
        print(String(format: "PackageTests: apt-get install took %.1f s", Date().timeIntervalSince(started)))
        let owned = try run(["/usr/bin/dpkg", "-L", "glimt-pure"]).out.split(separator: "\n").map(String.init)
        for file in Self.files { XCTAssertTrue(owned.contains(file), file) }
        try checkLibraries("/usr/bin/glimt-pure")

        // Out of sight: the toolchain this test runs on (the folder of its Swift runtime), this
        // build's folder and the repository's .build, where the package was built.
        let maps = String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
        let runtime = try XCTUnwrap(
            maps.split(separator: "\n").compactMap { $0.split(separator: " ").last }.first { $0.hasSuffix("/libswiftCore.so") })
        let toolchain = String(runtime.components(separatedBy: "/usr/lib/swift/")[0])
        let hiddenFolders = [
            toolchain, CLITestCase.binary.deletingLastPathComponent().path, Self.repositoryRoot.appendingPathComponent(".build").path,
        ]
        .filter { FileManager.default.fileExists(atPath: $0) }
        XCTAssertGreaterThanOrEqual(hiddenFolders.count, 2, "\(hiddenFolders)")
        let home = library.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // Each in turn: a tmpfs over a folder, then nothing seen in any of them.
        let hide =
            hiddenFolders.map { "mount -t tmpfs none '\($0)'" }.joined(separator: " && ") + " && "
            + hiddenFolders.map { "[ -z \"$(ls -A '\($0)')\" ]" }.joined(separator: " && ")
        func hidden(_ args: [String]) throws -> Run {
            let bare = "exec env -i PATH=/usr/bin:/bin HOME='\(home.path)' \"$@\""
            return try run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", hide + " && " + bare, "sh"] + args, in: home)
        }
        let check = try hidden(["/bin/sh", "-c", "ls /usr/bin/swift* '\(toolchain)/usr/bin/swift' 2>/dev/null; echo hidden"])
        guard check.out.hasSuffix("hidden\n") else {
            throw ContinuousIntegration.cannotRun("no mount namespace here to hide the toolchain in (unshare -m: \(check.err))")
        }
        XCTAssertEqual(check.out, "hidden\n", "no swift in sight")
        let ldd = try hidden(["/usr/bin/ldd", "/usr/bin/glimt-pure"])
        XCTAssertFalse(ldd.out.contains("not found") || ldd.out.contains("swift"), ldd.out)
        let faces = try hidden(["/usr/bin/glimt-pure", "faces", "--json", fixture("yunet/two_people.png")])
        XCTAssertEqual(faces.status, 0, faces.err)
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as? [String: Any])?["faces"] as? [Any])?.count, 2, faces.out)
        let film = home.appendingPathComponent("sample.mp4")
        let made = try hidden([
            "/usr/bin/glimt-pure", "film", Self.repositoryRoot.appendingPathComponent("Sample/videos").path, "--ref",
            Self.repositoryRoot.appendingPathComponent("Sample/reference.jpg").path, "--out", film.path, "-q",
        ])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertTrue(made.out.hasPrefix("wrote \(film.path): "), made.out)
        XCTAssertGreaterThan((try? FileStatus(film.path))?.size ?? 0, 100_000)
        let scanned = try hidden(["/usr/bin/glimt-pure", "scan", fixture("analysis/two_people.mp4"), "-q"])
        XCTAssertEqual(scanned.status, 0, scanned.err)
        let store = home.appendingPathComponent(".local/share/glimt/library.sqlite")
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.path), "the user's library")

        // The units as installed, with the man page they name when man is there to find it.
        let man = try FileManager.default.isExecutableFile(atPath: "/usr/bin/man") && run(["/usr/bin/man", "-w", "glimt-pure"]).status == 0
        let verify = try run(["/usr/bin/systemd-analyze", "verify"] + (man ? [] : ["--man=no"]) + Self.files.suffix(2))
        XCTAssertEqual(verify.status, 0, verify.err)
        XCTAssertEqual(verify.err, "", "systemd-analyze has nothing to say of the units")

        let remove = try run(["/usr/bin/apt-get", "remove", "-y", "-qq", "glimt-pure"], environment: apt)
        XCTAssertEqual(remove.status, 0, remove.out + remove.err)
        for path in owned where !["/.", "/", "/usr", "/usr/bin", "/usr/lib", "/usr/share"].contains(path) {
            guard let status = try? FileStatus(path) else { continue }
            // Shared folders (man1, completions, systemd/user) stay for the other packages in them.
            XCTAssertEqual(status.kind, .folder, "\(path) is left after removal")
            XCTAssertFalse(path.contains("glimt"), "\(path) is left after removal")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.path), "the user's library stays")
        XCTAssertNotEqual(try run(["/usr/bin/dpkg-query", "-W", "glimt-pure"]).status, 0, "dpkg has forgotten it: no conffiles, nothing to purge")
    }
}
