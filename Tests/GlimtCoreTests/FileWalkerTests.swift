import Foundation
import TestSupport
import XCTest

@testable import GlimtCore

/// The walk that finds videos in folders: each real folder once, the kernel's filesystems left
/// alone, and a stop asked for ends it at once.
final class FileWalkerTests: XCTestCase {
    private func isVideo(_ path: String) -> Bool { path.hasSuffix(".mp4") }

    /// `levels` folders, each with `links` links to the next: links^levels paths to the last.
    private func maze(levels: Int, links: Int) throws -> URL {
        let root = temporaryFolder(self)
        for i in 0...levels {
            let folder = root.appendingPathComponent("level\(i)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data([1]).write(to: folder.appendingPathComponent("clip\(i).mp4"))
        }
        for i in 0..<levels {
            for k in 0..<links {
                try FileManager.default.createSymbolicLink(
                    atPath: root.appendingPathComponent("level\(i)/link\(k)").path,
                    withDestinationPath: root.appendingPathComponent("level\(i + 1)").path)
            }
        }
        return root.appendingPathComponent("level0")
    }

    func testEachRealFolderIsWalkedOnceHoweverManyLinksLeadToIt() throws {
        let root = try maze(levels: 30, links: 3)
        var asked = 0
        let started = Date()
        let (files, problems) = FileWalker.find([root.path]) { path in
            asked += 1; return self.isVideo(path)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "3^30 paths, 31 folders")
        XCTAssertEqual(files.count, 31, "each clip once")
        XCTAssertEqual(Set(files.map { URL(fileURLWithPath: $0).lastPathComponent }).count, 31)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(asked, 31, "each file looked at once")
        // The first path in name order is the one kept: level0/clip0, level0/link0/clip1, ...
        XCTAssertTrue(files.contains(root.path + "/link0/clip1.mp4"), "\(files.prefix(3))")
    }

    func testALinkBackIntoAFolderItIsInsideIsSaidOnce() throws {
        let root = temporaryFolder(self)
        let inner = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: inner.appendingPathComponent("up").path, withDestinationPath: root.appendingPathComponent("a").path)
        try Data([1]).write(to: inner.appendingPathComponent("x.mp4"))
        let (files, problems) = FileWalker.find([root.path], accept: isVideo)
        XCTAssertEqual(files, [inner.appendingPathComponent("x.mp4").path])
        XCTAssertEqual(problems.map(\.reason), ["a symlink loop (leads back into a folder it is inside); not followed"])
    }

    func testTheKernelsFilesystemsAreNotWalked() throws {
        let root = temporaryFolder(self)
        try Data([1]).write(to: root.appendingPathComponent("a.mp4"))
        for (name, target) in [("p", "/proc/self"), ("s", "/sys"), ("root", "/proc/self/root/proc")] {
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(name).path, withDestinationPath: target)
        }
        let (files, problems) = FileWalker.find([root.path, "/proc", "/proc/self/environ"], accept: isVideo)
        XCTAssertEqual(files, [root.appendingPathComponent("a.mp4").path])
        XCTAssertEqual(problems.map(\.path), [root.path + "/p", root.path + "/root", root.path + "/s", "/proc", "/proc/self/environ"])
        XCTAssertEqual(
            problems.map(\.reason),
            [
                "the kernel's proc filesystem, not a folder of videos; not walked",
                "the kernel's proc filesystem, not a folder of videos; not walked",
                "the kernel's sysfs filesystem, not a folder of videos; not walked",
                "the kernel's proc filesystem, not a folder of videos; not walked",
                "the kernel's proc filesystem, not a video; not read",
            ])
    }

    /// A stop asked for while the walk is under way ends it at the next entry, with what it found.
    func testAStopEndsTheWalkAtOnce() throws {
        let root = temporaryFolder(self)
        for i in 0..<50 {
            let folder = root.appendingPathComponent(String(format: "f%02d", i))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for k in 0..<20 { try Data([1]).write(to: folder.appendingPathComponent("c\(k).mp4")) }
        }
        var looked = 0
        let (files, _) = FileWalker.find([root.path], stop: { looked >= 30 }) { path in
            looked += 1; return self.isVideo(path)
        }
        XCTAssertEqual(looked, 30, "not one entry looked at after the stop")
        XCTAssertEqual(files.count, 30)
        XCTAssertEqual(FileWalker.find([root.path], stop: { true }, accept: isVideo).files, [], "asked before it starts: nothing")
        XCTAssertEqual(FileWalker.find([root.path], accept: isVideo).files.count, 1000)
    }

    /// A tree deeper than PATH_MAX (made and removed through folder descriptors, as no path can
    /// reach its bottom): walked to the end, and the video there, which no program can open by
    /// its path, is named in one line instead of vanishing with its folder.
    func testATreeDeeperThanPathMaxIsWalkedAndItsUnreadableVideoNamed() throws {
        let root = temporaryFolder(self)
        let segment = String(repeating: "d", count: 200)
        var fds = [open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)]
        defer {
            // Bottom up: each folder emptied and removed from its parent's descriptor.
            for level in stride(from: fds.count - 1, to: 0, by: -1) {
                unlinkat(fds[level], "deep.mp4", 0)
                unlinkat(fds[level], "near.mp4", 0)
                close(fds[level])
                unlinkat(fds[level - 1], segment, AT_REMOVEDIR)
            }
            close(fds[0])
        }
        var path = root.path
        for _ in 0..<25 {
            XCTAssertEqual(mkdirat(fds.last!, segment, 0o755), 0)
            fds.append(openat(fds.last!, segment, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
            XCTAssertGreaterThanOrEqual(fds.last!, 0)
            path += "/" + segment
            // One clip where its path still fits, one at the bottom, past PATH_MAX.
            if path.utf8.count + 9 < Int(PATH_MAX) && path.utf8.count + 210 >= Int(PATH_MAX) {
                close(openat(fds.last!, "near.mp4", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
            }
        }
        close(openat(fds.last!, "deep.mp4", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
        let deep = path + "/deep.mp4"
        XCTAssertGreaterThan(deep.utf8.count, Int(PATH_MAX))
        let (files, problems) = FileWalker.find([root.path], accept: isVideo)
        XCTAssertEqual(files.count, 1, "the clip whose path fits")
        XCTAssertTrue(files.first?.hasSuffix("/near.mp4") ?? false)
        XCTAssertEqual(problems.map(\.path), [deep], "the clip past PATH_MAX, named")
        XCTAssertTrue(problems.first?.reason.hasPrefix("name too long: its path is \(deep.utf8.count) bytes") ?? false, "\(problems)")
    }

    /// A file reached by a second path (a hard link, a link to it) is listed under that path too:
    /// the scan and the film recognise the copy and name it in its line, never drop it unsaid.
    func testAFileReachedByASecondPathIsListedUnderIt() throws {
        let root = temporaryFolder(self)
        let first = root.appendingPathComponent("a.mp4").path
        try Data([1]).write(to: URL(fileURLWithPath: first))
        try FileManager.default.linkItem(atPath: first, toPath: root.appendingPathComponent("b.mp4").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("c.mp4").path, withDestinationPath: first)
        let (files, problems) = FileWalker.find([root.path, first], accept: isVideo)
        XCTAssertEqual(
            files.map { URL(fileURLWithPath: $0).lastPathComponent }, ["a.mp4", "b.mp4", "c.mp4"], "the same path named twice is taken once")
        XCTAssertEqual(problems, [])
    }
}
