import Foundation
import XCTest
import TestSupport
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
                try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("level\(i)/link\(k)").path,
                                                           withDestinationPath: root.appendingPathComponent("level\(i + 1)").path)
            }
        }
        return root.appendingPathComponent("level0")
    }

    func testEachRealFolderIsWalkedOnceHoweverManyLinksLeadToIt() throws {
        let root = try maze(levels: 30, links: 3)
        var asked = 0
        let started = Date()
        let (files, problems) = FileWalker.find([root.path]) { path in asked += 1; return self.isVideo(path) }
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
        try FileManager.default.createSymbolicLink(atPath: inner.appendingPathComponent("up").path, withDestinationPath: root.appendingPathComponent("a").path)
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
        XCTAssertEqual(problems.map(\.reason), ["the kernel's proc filesystem, not a folder of videos; not walked",
                                                "the kernel's proc filesystem, not a folder of videos; not walked",
                                                "the kernel's sysfs filesystem, not a folder of videos; not walked",
                                                "the kernel's proc filesystem, not a folder of videos; not walked",
                                                "the kernel's proc filesystem, not a video; not read"])
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
        let (files, _) = FileWalker.find([root.path], stop: { looked >= 30 }) { path in looked += 1; return self.isVideo(path) }
        XCTAssertEqual(looked, 30, "not one entry looked at after the stop")
        XCTAssertEqual(files.count, 30)
        XCTAssertEqual(FileWalker.find([root.path], stop: { true }, accept: isVideo).files, [], "asked before it starts: nothing")
        XCTAssertEqual(FileWalker.find([root.path], accept: isVideo).files.count, 1000)
    }
}
