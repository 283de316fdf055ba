import Foundation
import GlimtCore

/// Whether a JPEG's first picture runs to its end-of-image marker. FFmpeg's decoder pads a
/// picture cut short near its end with zeros and reports nothing, so a photo missing its last
/// few kilobytes would come out with a smeared bottom; walking the markers catches that.
/// Bytes after the end marker (MPF second pictures, maker trailers) are allowed.
enum JPEGEndCheck {
    static func isComplete(path: String) -> Bool {
        guard let handle = FileName.handleForReading(path) else { return false }
        defer { try? handle.close() }
        var reader = ChunkedBytes(handle: handle)
        return isComplete(&reader)
    }

    static func isComplete(bytes: [UInt8]) -> Bool {
        var reader = ChunkedBytes(bytes: bytes)
        return isComplete(&reader)
    }

    private static func isComplete(_ reader: inout ChunkedBytes) -> Bool {
        guard reader.next() == 0xff, reader.next() == 0xd8 else { return false }
        var pending: UInt8?  // a marker found while scanning entropy-coded data
        while true {
            let marker: UInt8
            if let found = pending {
                marker = found
                pending = nil
            } else {
                guard reader.next() == 0xff else { return false }
                var m = reader.next()
                while m == 0xff { m = reader.next() }  // fill bytes
                guard let m else { return false }
                marker = m
            }
            switch marker {
            case 0xd9: return true
            case 0xd0...0xd7, 0x01: continue  // no length
            default: break
            }
            guard let high = reader.next(), let low = reader.next() else { return false }
            let length = Int(high) << 8 | Int(low)
            guard length >= 2, reader.skip(length - 2) else { return false }
            if marker == 0xda {
                // Entropy-coded data runs to the next marker that is neither stuffing nor a restart.
                while pending == nil {
                    guard let byte = reader.next() else { return false }
                    guard byte == 0xff else { continue }
                    var next = reader.next()
                    while next == 0xff { next = reader.next() }
                    guard let next else { return false }
                    if next != 0x00 && !(0xd0...0xd7).contains(next) { pending = next }
                }
            }
        }
    }
}

/// Sequential bytes from a file, read 64 KiB at a time, or from memory.
private struct ChunkedBytes {
    private let handle: FileHandle?
    private var chunk: [UInt8]
    private var position = 0

    init(handle: FileHandle) { self.handle = handle; chunk = [] }
    init(bytes: [UInt8]) { handle = nil; chunk = bytes }

    mutating func next() -> UInt8? {
        if position == chunk.count && !refill() { return nil }
        defer { position += 1 }
        return chunk[position]
    }

    /// Skips `count` bytes; false if the data ends first.
    mutating func skip(_ count: Int) -> Bool {
        var left = count
        while left > 0 {
            if position == chunk.count && !refill() { return false }
            let step = min(left, chunk.count - position)
            position += step
            left -= step
        }
        return true
    }

    private mutating func refill() -> Bool {
        guard let handle, let data = try? handle.read(upToCount: 1 << 16), !data.isEmpty else { return false }
        chunk = [UInt8](data)
        position = 0
        return true
    }
}
