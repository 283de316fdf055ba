import Foundation
import MediaIO

/// Sound for tests: a tone written as a WAV by hand (so a test depends on no encoder), and the
/// level of one frequency in decoded samples.
public enum SoundFixtures {
    /// A mono 16-bit WAV of a sine at `hertz`; returns its path.
    public static func tone(in folder: URL, hertz: Double, seconds: Double, rate: Int = 44_100, amplitude: Double = 0.5) throws -> String {
        let n = Int(seconds * Double(rate))
        var data = Data()
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        put(UInt32(36 + 2 * n))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        put(UInt32(16)); put(UInt16(1)); put(UInt16(1)); put(UInt32(rate)); put(UInt32(2 * rate)); put(UInt16(2)); put(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        put(UInt32(2 * n))
        for i in 0..<n { put(Int16(amplitude * 32767 * sin(2 * .pi * hertz * Double(i) / Double(rate)))) }
        let path = folder.appendingPathComponent("tone\(Int(hertz)).wav").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The level (dBFS, as a sine's RMS) of `hertz` in `samples` (one channel at 48 kHz) from
    /// `from` to `to` seconds: a single-frequency Fourier sum.
    public static func band(_ samples: [Float], hertz: Double, from: Double, to: Double) -> Double {
        let a = Int(from * 48_000), b = min(samples.count, Int(to * 48_000))
        var re = 0.0, im = 0.0
        for i in a..<b {
            let w = 2 * Double.pi * hertz * Double(i) / 48_000
            re += Double(samples[i]) * cos(w)
            im += Double(samples[i]) * sin(w)
        }
        let amplitude = 2 * (re * re + im * im).squareRoot() / Double(b - a)
        return 20 * log10(amplitude / 2.squareRoot() + 1e-12)
    }

    /// The left channel of a film's (or any file's) sound, decoded at 48 kHz, from 0 to `seconds`.
    public static func left(of path: String, seconds: Double) throws -> [Float] {
        guard let reader = try AudioReader(path: path) else { return [] }
        let stereo = try reader.samples(from: 0, to: seconds)
        return stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
    }
}
