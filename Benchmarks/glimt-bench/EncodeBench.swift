import Foundation
import Imaging
import MediaIO

/// `glimt-bench encode [VIDEO]`: film encoding at phone-portrait size (1080x1920), per x264
/// preset, in ms per frame and Mb/s. Frames are two seconds into VIDEO, cut to portrait and
/// enlarged: smoother than a phone's own footage, so also measured with grain added.
enum EncodeBench {
    static func run(video: String) throws {
        let width = 1080, height = 1920, fps = 30, count = 60
        let source = try VideoReader(path: video).frames(from: 2, to: 2 + Double(count) / 29.97, depth: .eightBit).collect()
        let smooth = source.prefix(count).map { frame -> RGBImage in
            let image = frame.picture.rgb8
            let cropWidth = min(image.width, image.height * width / height)
            let cropped = Crop.crop(image, x: (image.width - cropWidth) / 2, y: 0, width: cropWidth, height: image.height)
            return Resize.resize(cropped, width: width, height: height)
        }
        var state: UInt64 = 7
        let grainy = smooth.map { image -> RGBImage in
            var copy = image
            for i in copy.pixels.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                copy.pixels[i] = UInt8(clamping: Int(copy.pixels[i]) + Int(state >> 60) - 8)
            }
            return copy
        }
        print("\(smooth.count) frames \(width)x\(height) from \(video), \(ProcessInfo.processInfo.activeProcessorCount) cores")

        // Each frame's sound: a 440 Hz tone, so the audio encoder works as it does on a film.
        let tone = (0..<FilmWriter.audioSamples(forFrames: 1, fps: fps)).map {
            Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(AudioFormat.sampleRate)))
        }
        let sound = tone.flatMap { [$0, $0] }  // interleaved stereo
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, frames) in [("smooth", smooth), ("grainy", grainy)] {
            for preset in ["medium", "veryfast"] {
                let film = folder + "/\(name)-\(preset).mp4"
                let quality = FilmQuality(preset: preset)
                let ms = try Timing.milliseconds {
                    let writer = try FilmWriter(path: film, width: width, height: height, fps: fps, quality: quality)
                    for frame in frames {
                        try writer.append(frame)
                        try writer.appendAudio(sound)
                    }
                    try writer.finish()
                }
                let bytes = (try FileManager.default.attributesOfItem(atPath: film)[.size] as? NSNumber)?.intValue ?? 0
                let seconds = Double(frames.count) / Double(fps)
                print(
                    "  \(name) \(preset.padding(toLength: 8, withPad: " ", startingAt: 0)) crf \(String(format: "%g", quality.crf)): "
                        + String(format: "%6.1f ms per frame, %5.2f Mb/s", ms / Double(frames.count), Double(bytes) * 8 / seconds / 1e6))
            }
        }
    }
}
