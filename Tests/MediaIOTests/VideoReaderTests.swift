import TestSupport
import XCTest

@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// VideoReader on the clips in Fixtures/media (see PROVENANCE.md there for how each was made).
final class VideoReaderTests: XCTestCase {
    // MARK: Description

    func testPortraitPhoneStyleClipDescription() throws {
        let info = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4")).info
        XCTAssertEqual(info.codecName, "h264")
        XCTAssertEqual(info.pixelFormat, "yuv420p")
        XCTAssertEqual(info.bitDepth, 8)
        XCTAssertEqual(info.codedWidth, 320)
        XCTAssertEqual(info.codedHeight, 180)
        XCTAssertEqual(info.rotation, 90)
        XCTAssertEqual(info.orientation, .rotated90)
        XCTAssertEqual(info.displayWidth, 180)
        XCTAssertEqual(info.displayHeight, 320)
        XCTAssertEqual(info.duration, 2.0, accuracy: 0.05)
        XCTAssertEqual(info.startTime, 0)
        XCTAssertEqual(info.frameRate, 29.97, accuracy: 0.01)
        XCTAssertTrue(info.hasAudio)
        XCTAssertFalse(info.colour.isHDR)
        XCTAssertEqual(info.tags["creation_time"], "2021-06-05T14:03:22.000000Z")
        XCTAssertEqual(info.tags["com.apple.quicktime.creationdate"], "2021-06-05T16:03:22+0200")
        XCTAssertTrue(info.container.contains("mp4"))
    }

    func testTenBitHLGClipDescription() throws {
        let info = try VideoReader(path: Fixtures.path("media/hevc10_hlg.mp4")).info
        XCTAssertEqual(info.codecName, "hevc")
        XCTAssertEqual(info.pixelFormat, "yuv420p10le")
        XCTAssertEqual(info.bitDepth, 10)
        XCTAssertEqual(info.colour, VideoColour(transfer: "arib-std-b67", primaries: "bt2020", matrix: "bt2020nc", fullRange: false))
        XCTAssertTrue(info.colour.isHDR)
        XCTAssertTrue(info.colour.isWideGamut)
        XCTAssertEqual(info.rotation, 0)
        XCTAssertFalse(info.hasAudio)
        XCTAssertEqual(info.displayWidth, 320)
    }

    func testOtherCodecsAndContainers() throws {
        let mpeg4 = try VideoReader(path: Fixtures.path("media/mpeg4_part2.avi"))
        XCTAssertEqual(mpeg4.info.codecName, "mpeg4")
        XCTAssertEqual(mpeg4.info.frameRate, 25)
        XCTAssertEqual(mpeg4.info.container, "avi")
        let times: [Double] = try mpeg4.frames(every: 0.5, longSide: 100).collect().map(\.time)
        XCTAssertEqual(times, [0, 0.52, 1.0, 1.52], "25 fps: the first frame at or after each half second")

        let vp9 = try VideoReader(path: Fixtures.path("media/vp9_offset.webm"))
        XCTAssertEqual(vp9.info.codecName, "vp9")
        XCTAssertEqual(vp9.info.startTime, 3.0, accuracy: 0.001)
        // As long as it plays: its Matroska Duration (5.0 s) is where its last frame ends on a clock starting at 3.
        XCTAssertEqual(vp9.info.duration, 2.0, accuracy: 0.01)

        let av1 = try VideoReader(path: Fixtures.path("media/av1.mkv"))
        XCTAssertEqual(av1.info.codecName, "av1")
        let frames = try av1.frames(every: 0.1, longSide: 1000).collect()
        XCTAssertEqual(frames.count, 10)
        XCTAssertEqual(frames.first?.image.width, 160)
        XCTAssertGreaterThan(MediaFixtures.mean(frames[5].image, x: 0..<160, y: 0..<90).r, 10, "a picture, not black")
    }

    // MARK: Sampling

    /// Upright means the stored picture turned clockwise: turned back, a portrait frame matches
    /// the same moment of the unrotated clip cut from the same source, and no other turn does.
    func testPortraitFramesComeUpright() throws {
        let portrait = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4")).frames(every: 1, longSide: 320).collect()
        XCTAssertEqual(portrait.count, 2)
        XCTAssertEqual(portrait[0].image.width, 180)
        XCTAssertEqual(portrait[0].image.height, 320)
        let reference = try XCTUnwrap(try VideoReader(path: Fixtures.path("media/vfr_h264.mp4")).frames(every: 1, longSide: 320).next()).image
        let differences = ImageOrientation.allCases.map { turn -> (ImageOrientation, Double) in
            let back = turn.apply(to: portrait[0].image)
            guard back.width == reference.width else { return (turn, .infinity) }
            return (turn, grayDifference(back, reference))
        }
        let best = differences.min { $0.1 < $1.1 }!
        XCTAssertEqual(best.0, .rotated270, "turning 90° counter-clockwise undoes the 90° clockwise display turn: \(differences)")
        XCTAssertLessThan(best.1, 8)
    }

    /// Samples are the first frame at or after each multiple of the interval, timed by the
    /// frames' own timestamps: checked against the clip's known variable frame timing.
    func testVariableFrameRateSamplingUsesTimestamps() throws {
        let timeBase = 1.0 / 11988
        let steady: [Double] = (0...30).map { Double($0 * 400) * timeBase }
        let sparse: [Double] = (0...8).map { Double(13200 + $0 * 1200) * timeBase }
        let stamps = steady + sparse
        for interval in [0.05, 0.25, 0.5] {
            var expected: [Double] = []
            var target = 0.0
            for t in stamps where t + 0.0005 >= target {
                expected.append(t)
                target = (((t + 0.0005) / interval).rounded(.down) + 1) * interval
            }
            let sampled = try VideoReader(path: Fixtures.path("media/vfr_h264.mp4")).frames(every: interval, longSide: 64).collect()
            XCTAssertEqual(sampled.count, expected.count, "interval \(interval)")
            for (got, want) in zip(sampled, expected) { XCTAssertEqual(got.time, want, accuracy: 1e-6) }
            XCTAssertEqual(sampled.first?.image.width, 64)
            XCTAssertEqual(sampled.first?.image.height, 36)
        }
    }

    func testStartOffsetIsRemovedFromTimes() throws {
        let reader = try VideoReader(path: Fixtures.path("media/vp9_offset.webm"))
        let samples = try reader.frames(every: 0.5, longSide: 160).collect()
        XCTAssertEqual(samples.first?.time ?? -1, 0, accuracy: 0.001)
        XCTAssertEqual(samples.count, 4)
        let clip = try reader.frames(from: 1.0, to: 1.1).collect()
        XCTAssertEqual(clip.map(\.time).count, 3)
        XCTAssertEqual(clip.first?.time ?? -1, 1.001, accuracy: 0.001)
    }

    func testSamplingFromALaterStart() throws {
        let reader = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4"))
        let samples = try reader.frames(every: 0.25, longSide: 100, from: 1.2).collect()
        XCTAssertEqual(samples.map { ($0.time * 1000).rounded() }, [1201, 1468, 1702, 1969])
    }

    func testSamplingStopsAtTheEndOfARange() throws {
        let reader = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4"))
        let samples = try reader.frames(every: 0.25, longSide: 100, from: 1.2, to: 1.75).collect()
        XCTAssertEqual(samples.map { ($0.time * 1000).rounded() }, [1201, 1468, 1702])
    }

    /// The keyframe look: only keyframes are decoded (ffprobe: one each second, 0 to 28 s),
    /// the last one's end is not taken for a truncation, and a range taken afterwards from the
    /// same reader still goes through every frame (decoding all but the pictures nothing needs).
    func testKeyframesOnlyDecodesOnlyKeyframes() throws {
        let path = Fixtures.url("long/long_day.mp4").path
        let reader = try VideoReader(path: path)
        let look = try reader.frames(every: 1e-4, longSide: 160, options: VideoDecodeOptions(keyframesOnly: true))
        let keyframes = try look.collect()
        XCTAssertEqual(keyframes.map { $0.time.rounded() }, (0...28).map(Double.init))
        XCTAssertEqual(look.framesDecoded, 29)
        let stretch = try reader.frames(every: 0.125, longSide: 160, from: 10, to: 11)
        XCTAssertEqual(try stretch.collect().count, 8)
        XCTAssertGreaterThanOrEqual(stretch.framesDecoded + stretch.picturesSkipped, 25)
    }

    /// Every other keyframe: the two halves alternate and together are every keyframe, with
    /// the pixels of reading them all, read whole and from a time, on H.264, HEVC PQ and AV1.
    func testKeyframeHalvesTogetherAreEveryKeyframe() throws {
        let fixtures = Fixtures.root
        let long = fixtures.appendingPathComponent("long/long_day.mp4").path
        let reads: [(path: String, from: Double, to: Double)] = [
            (long, 0, .infinity), (long, 10.5, 20), (Fixtures.path("media/h264_portrait.mp4"), 0, .infinity),
            (fixtures.appendingPathComponent("hdr/pq_bt2020.mp4").path, 0, .infinity), (Fixtures.path("media/av1.mkv"), 0, .infinity),
        ]
        for read in reads {
            let reader = try VideoReader(path: read.path)
            func keyframes(_ half: Int?) throws -> [SampledFrame] {
                try reader.frames(
                    every: 1e-4, longSide: 160, from: read.from, to: read.to,
                    options: VideoDecodeOptions(keyframesOnly: true, keyframeHalf: half)
                ).collect()
            }
            let all = try keyframes(nil), first = try keyframes(0), second = try keyframes(1)
            XCTAssertGreaterThanOrEqual(all.count, 2, read.path)
            // Alternating: each keyframe in one half, its neighbours in the other.
            let half = all.map { frame in first.contains { $0.time == frame.time } ? 0 : 1 }
            XCTAssertEqual((first + second).map(\.time).sorted(), all.map(\.time), "\(read)")
            XCTAssertTrue(zip(half, half.dropFirst()).allSatisfy { $0 != $1 }, "\(read): \(half)")
            for frame in first + second {
                let same = all.first { $0.time == frame.time }
                XCTAssertEqual(frame.image.pixels, same?.image.pixels, "\(read) at \(frame.time)")
            }
        }
    }

    /// Sampled frames skip libswscale's exact rounding by default: a level or two, no more.
    func testSampledFramesRoundWithinTwoLevelsOfExact() throws {
        let reader = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4"))
        let quick = try reader.frames(every: 0.5, longSide: 160).collect()
        let exact = try reader.frames(every: 0.5, longSide: 160, options: .init(accurateRounding: true)).collect()
        XCTAssertEqual(quick.map(\.time), exact.map(\.time))
        for (a, b) in zip(quick, exact) {
            let worst = zip(a.image.pixels, b.image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 3)
        }
    }

    func testCheapDecodingSwitchesStillSample() throws {
        let reader = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4"))
        let exact = try reader.frames(every: 0.25, longSide: 160).collect()
        let cheapFrames = try reader.frames(every: 0.25, longSide: 160, options: .cheap)
        let cheap = try cheapFrames.collect()
        XCTAssertLessThan(cheapFrames.framesDecoded, 60, "non-reference frames are skipped")
        XCTAssertGreaterThanOrEqual(cheap.count, exact.count - 2)
        for sample in cheap { XCTAssertEqual(sample.image.width, 90) }
        for (a, b) in zip(exact, cheap) where abs(a.time - b.time) < 0.001 {
            XCTAssertLessThan(grayDifference(a.image, b.image), 12, "cheap frames are still the same picture")
        }
    }

    // MARK: Full-resolution frames from a time

    /// Seeking to the previous keyframe and decoding forward gives exactly the frames (and
    /// pixels) that decoding from the start gives, for starts on and between keyframes.
    func testFramesFromATimeMatchDecodingFromTheStart() throws {
        let reader = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4"))
        let all = try reader.frames(from: 0, to: 10).collect()
        XCTAssertEqual(all.count, 60)
        XCTAssertTrue(zip(all, all.dropFirst()).allSatisfy { $0.time < $1.time })
        for start in [0.5, 0.55, 1.0, 1.1, 1.568, 1.9] {
            let cut = try reader.frames(from: start, to: start + 1).collect()
            let expected = all.filter { $0.time >= start - 0.0005 && $0.time < start + 1 - 0.0005 }
            XCTAssertEqual(cut.map(\.time), expected.map(\.time), "start \(start)")
            XCTAssertTrue(cut == expected, "pixels from \(start)")
        }
        let second = try reader.frames(from: 1.0, to: 2.0).collect()
        XCTAssertEqual(second.count, 30, "one second at 29.97 fps")
        guard case .rgb8(let picture) = second[0].picture else { return XCTFail("8-bit clip gives 8-bit frames") }
        XCTAssertEqual(picture.width, 180)
        XCTAssertEqual(picture.height, 320)
    }

    func testTenBitFramesComeAsSixteenBitPlanes() throws {
        let reader = try VideoReader(path: Fixtures.path("media/hevc10_hlg.mp4"))
        let frames = try reader.frames(from: 0.5, to: 1.0).collect()
        XCTAssertEqual(frames.count, 15)
        guard case .rgb16(let wide) = frames[0].picture else { return XCTFail("10-bit clip gives 16-bit frames") }
        XCTAssertEqual(wide.width, 320)
        XCTAssertEqual(wide.height, 180)
        // More levels than 8 bits can hold: the extra precision is kept, not rounded away.
        let finer = wide.green.filter { $0 % 257 != 0 }.count
        XCTAssertGreaterThan(finer, wide.green.count / 2)
        let narrow = try reader.frames(from: 0.5, to: 1.0, depth: .eightBit).collect()
        guard case .rgb8(let eight) = narrow[0].picture else { return XCTFail("asked for 8-bit") }
        XCTAssertLessThan(grayDifference(eight, wide.to8Bit()), 1.0)
        // The same moment of the 8-bit clip cut from the same source looks the same in outline.
        let sdr = try XCTUnwrap(try VideoReader(path: Fixtures.path("media/vfr_h264.mp4")).frames(from: 0.5, to: 0.6).next())
        XCTAssertLessThan(grayDifference(eight, sdr.picture.rgb8), 25)
    }

    // MARK: Bad input: one line naming the file, never a crash

    func testFilesThatAreNotVideos() throws {
        let folder = temporaryFolder(self).path
        let cases: [(String, String)] = [
            (folder + "/missing.mp4", "no such file"),
            (MediaFixtures.write([], folder, "empty.mp4"), "empty file (0 bytes)"),
            (MediaFixtures.write(Array("not a video\n".utf8), folder, "notes.mp4"), "not a photo or video (no known format)"),
            (Fixtures.path("media/audio_only.m4a"), "has no video stream (sound only)"),
            (Fixtures.path("media/photo.webp"), "is a still image (webp), not a video"),
            (Fixtures.path("media/photo.heic"), "is a HEIC photo, not a video"),
        ]
        for (path, reason) in cases {
            XCTAssertEqual(MediaFixtures.glimtError { _ = try VideoReader(path: path) }, GlimtError(reason, path: path))
        }
        let garbage = MediaFixtures.write((0..<20000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }, folder, "garbage.mp4")
        XCTAssertEqual(MediaFixtures.glimtError { _ = try VideoReader(path: garbage) }?.path, garbage)
    }

    /// A cut-off MP4 with its index at the end cannot be opened; one with the index first
    /// gives the frames it has, then says it is truncated.
    func testTruncatedVideos() throws {
        let folder = temporaryFolder(self).path
        let indexLast = MediaFixtures.bytes(Fixtures.path("media/h264_portrait.mp4"))
        for keep in [indexLast.count / 50, indexLast.count / 2, indexLast.count * 9 / 10] {
            let path = MediaFixtures.write(Array(indexLast.prefix(keep)), folder, "cut\(keep).mp4")
            let error = MediaFixtures.glimtError { _ = try VideoReader(path: path) }
            XCTAssertEqual(error?.path, path)
            XCTAssertTrue(error?.reason.hasPrefix("truncated or corrupt") ?? false, "\(String(describing: error))")
        }
        let indexFirst = MediaFixtures.bytes(Fixtures.path("media/hevc10_hlg.mp4"))
        let path = MediaFixtures.write(Array(indexFirst.prefix(indexFirst.count / 2)), folder, "cut.mp4")
        let reader = try VideoReader(path: path)
        XCTAssertEqual(reader.info.duration, 2.0, accuracy: 0.05, "the index still promises two seconds")
        for make in [{ try reader.frames(every: 0.25, longSide: 64) as AnyObject }, { try reader.frames(from: 0, to: 2) as AnyObject }] {
            let iterator = try make()
            var delivered = 0
            let error = MediaFixtures.glimtError {
                if let sampled = iterator as? SampledFrames { while try sampled.next() != nil { delivered += 1 } }
                if let full = iterator as? VideoFrames { while try full.next() != nil { delivered += 1 } }
            }
            XCTAssertGreaterThan(delivered, 0, "frames before the cut still come")
            XCTAssertEqual(error?.path, path)
            XCTAssertTrue(error?.reason.hasPrefix("truncated or corrupt: the video stops at") ?? false, "\(String(describing: error))")
        }
        // Asking only for what is still there is fine.
        XCTAssertGreaterThan(try reader.frames(from: 0, to: 0.3).collect().count, 5)
    }

    /// A file shorter than its own index (index first, the end not there yet) says where its
    /// frames stop; no committed clip is taken for one, whatever its streams' lengths (a video
    /// that ends before its sound among them), nor is a file cut only in its sound's tail.
    func testAFileCutShortOfItsIndexSaysWhereItsFramesStop() throws {
        let folder = temporaryFolder(self).path
        let roots = [Fixtures.root, Fixtures.repository.appendingPathComponent("Sample/videos")]
        let clips = roots.flatMap { root in
            FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }
                .filter { ["mp4", "mov", "m4v", "mkv", "webm", "avi"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
                .map { root.appendingPathComponent($0).path }
        }
        XCTAssertGreaterThan(clips.count, 30)
        for clip in clips {
            XCTAssertNil(try VideoReader(path: clip).info.cutShortAt, clip)
        }
        for (name, share) in [("long/long_day.mp4", 4), ("hdr/sdr_bt709.mp4", 2), ("media/hevc10_hlg.mp4", 3)] {
            let whole = MediaFixtures.bytes(Fixtures.path(name))
            let cut = MediaFixtures.write(Array(whole.prefix(whole.count / share)), folder, "cut-" + URL(fileURLWithPath: name).lastPathComponent)
            let info = try VideoReader(path: cut).info
            let end = try XCTUnwrap(info.cutShortAt, name)
            XCTAssertGreaterThan(end, 0, name)
            XCTAssertLessThan(end, info.duration * 0.9, name)
        }
        let longSound = MediaFixtures.bytes(Fixtures.path("media/video_shorter_than_audio.mp4"))
        let info = try VideoReader(path: Fixtures.path("media/video_shorter_than_audio.mp4")).info
        XCTAssertEqual(info.duration, 1, accuracy: 0.05, "the video stream's own length, not the sound's")
        let soundCut = MediaFixtures.write(Array(longSound.prefix(longSound.count * 9 / 10)), folder, "sound-cut.mp4")
        XCTAssertNil(try VideoReader(path: soundCut).info.cutShortAt, "every video frame is there")
    }

    /// Scrambled bytes inside the coded pictures or the index: decoding conceals or refuses,
    /// it never crashes.
    func testCorruptDataNeverCrashes() throws {
        let folder = temporaryFolder(self).path
        var state: UInt64 = 99
        for name in ["h264_portrait.mp4", "hevc10_hlg.mp4", "mpeg4_part2.avi", "vp9_offset.webm", "av1.mkv"] {
            let original = MediaFixtures.bytes(Fixtures.path("media/" + name))
            for round in 0..<16 {
                var bytes = original
                state = state &* 6364136223846793005 &+ 1442695040888963407
                // Half the rounds hit the first 4 KiB, where headers and parameter sets live.
                let at = Int(state >> 33) % (round % 2 == 0 ? min(4096, bytes.count) : bytes.count)
                let length = round % 4 < 2 ? 16 : 1500
                for i in at..<min(at + length, bytes.count) {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    bytes[i] = UInt8(truncatingIfNeeded: state >> 29)
                }
                let path = MediaFixtures.write(bytes, folder, "\(round)-\(name)")
                do {
                    let reader = try VideoReader(path: path)
                    _ = try reader.frames(every: 0.2, longSide: 64).collect()
                    _ = try reader.frames(from: 0.4, to: 0.8).collect()
                } catch let error as GlimtError {
                    XCTAssertEqual(error.path, path)
                    XCTAssertFalse(error.description.contains("\n"))
                }
            }
        }
    }

    func testBadArguments() throws {
        let reader = try VideoReader(path: Fixtures.path("media/av1.mkv"))
        XCTAssertNotNil(MediaFixtures.glimtError { _ = try reader.frames(every: 0, longSide: 100) })
        XCTAssertNotNil(MediaFixtures.glimtError { _ = try reader.frames(every: 1, longSide: 0) })
        XCTAssertNotNil(MediaFixtures.glimtError { _ = try reader.frames(from: 1, to: 1) })
        XCTAssertEqual(try reader.frames(from: 5, to: 6).collect().count, 0, "past the end: nothing, no error")
    }

    /// Mean absolute difference of the two pictures' grey levels.
    private func grayDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 3) {
            let ga = Double(a.pixels[i]) * 0.3 + Double(a.pixels[i + 1]) * 0.59 + Double(a.pixels[i + 2]) * 0.11
            let gb = Double(b.pixels[i]) * 0.3 + Double(b.pixels[i + 1]) * 0.59 + Double(b.pixels[i + 2]) * 0.11
            total += abs(ga - gb)
        }
        return total / Double(a.pixels.count / 3)
    }
}
