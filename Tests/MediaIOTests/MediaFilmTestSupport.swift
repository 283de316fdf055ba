import CFFmpeg
import Foundation
import TestSupport

@testable import Imaging
@testable import MediaIO

/// Sound and file checks shared by the FilmWriter and AudioReader tests.
enum FilmFixtures {
    /// A sine tone as interleaved stereo at 48 kHz, the same on both sides.
    static func tone(seconds: Double, frequency: Double = 440, amplitude: Double = 0.5) -> [Float] {
        let count = Int((seconds * 48_000).rounded())
        var samples = [Float](repeating: 0, count: 2 * count)
        for i in 0..<count {
            let value = Float(amplitude * sin(2 * Double.pi * frequency * Double(i) / 48_000))
            samples[2 * i] = value
            samples[2 * i + 1] = value
        }
        return samples
    }

    /// One side of interleaved stereo: 0 left, 1 right.
    static func side(_ samples: [Float], _ channel: Int) -> [Float] {
        stride(from: channel, to: samples.count, by: 2).map { samples[$0] }
    }

    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// The frequency of a clean tone, from its zero crossings.
    static func frequency(_ channel: [Float], sampleRate: Double = 48_000) -> Double {
        var crossings = 0
        for i in 1..<channel.count where (channel[i - 1] < 0) != (channel[i] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(channel.count) / sampleRate)
    }

    /// The first stereo frame where either side rises above `threshold`.
    static func onset(_ samples: [Float], threshold: Float = 0.02) -> Int? {
        stride(from: 0, to: samples.count, by: 2).first { abs(samples[$0]) > threshold || abs(samples[$0 + 1]) > threshold }.map { $0 / 2 }
    }

    /// The top-level MP4 boxes of a file, in order, e.g. ["ftyp", "moov", "free", "mdat"].
    static func topLevelBoxes(_ path: String) -> [String] {
        let bytes = MediaFixtures.bytes(path)
        var boxes: [String] = []
        var at = 0
        while at + 8 <= bytes.count {
            var size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            if size == 1, at + 16 <= bytes.count { size = bytes[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = bytes.count - at }
            boxes.append(type)
            guard size >= 8 else { break }
            at += size
        }
        return boxes
    }

    /// What libavformat says about one stream of a file.
    struct StreamFacts {
        var codec: String
        var profile: Int32
        var seconds: Double
        var sampleRate: Int
        var channels: Int
    }

    static func streams(_ path: String, _ type: AVMediaType) throws -> [StreamFacts] {
        let input = try MediaInput(path: path)
        return input.streams(of: type).map { index in
            let stream = input.stream(index)
            let parameters = stream.pointee.codecpar.pointee
            return StreamFacts(
                codec: input.codecName(of: index), profile: parameters.profile,
                seconds: Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base),
                sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels))
        }
    }
}
