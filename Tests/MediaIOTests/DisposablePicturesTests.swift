import CFFmpeg
import TestSupport
import XCTest

@testable import MediaIO

/// Sampling leaves pictures that are neither samples nor referred to by another picture
/// undecoded; the samples must be the very frames, with the very pixels, of decoding them all.
final class DisposablePicturesTests: XCTestCase {
    private struct Case {
        let path: String
        /// Whether the clip has B-frames nothing refers to, so some pictures must be skipped.
        let skips: Bool
    }

    private let cases = [
        Case(path: Fixtures.path("media/h264_portrait.mp4"), skips: true),
        Case(path: Fixtures.path("media/vfr_h264.mp4"), skips: true),  // variable frame rate
        Case(path: Fixtures.path("media/hevc10_hlg.mp4"), skips: true),  // HEVC Main 10
        Case(path: Fixtures.url("camera_roll/IMG_0042.MOV").path, skips: false),  // no B-frames
        Case(path: Fixtures.url("analysis/hevc10.mp4").path, skips: true),
        Case(path: Fixtures.path("media/audio_gap.mkv"), skips: true),  // Matroska: FFmpeg derives decode stamps
        Case(path: Fixtures.path("media/anamorphic.mp4"), skips: false),  // no B-frames
        Case(path: Fixtures.path("media/av1.mkv"), skips: false),  // not H.264 or HEVC
    ]

    func testSamplesAreTheFramesOfDecodingEveryPicture() throws {
        var tried = 0
        for c in cases {
            var skipped = 0
            for (interval, start, end) in [
                (0.125, 0.0, Double.infinity), (0.25, 0.0, .infinity), (1.0 / 3, 0.0, .infinity), (0.5, 0.7, 1.6), (0.1, 0.0, 1.0),
            ] {
                let every = try VideoReader(path: c.path).frames(
                    every: interval, longSide: 96, from: start, to: end,
                    options: VideoDecodeOptions(decodeEveryPicture: true))
                let expected = try every.collect()
                XCTAssertEqual(every.picturesSkipped, 0)
                let some = try VideoReader(path: c.path).frames(every: interval, longSide: 96, from: start, to: end)
                let got = try some.collect()
                let name = "\((c.path as NSString).lastPathComponent) every \(interval) s from \(start)"
                XCTAssertFalse(expected.isEmpty, name)
                XCTAssertEqual(got.map(\.time), expected.map(\.time), name)
                XCTAssertTrue(got == expected, "pixels of \(name)")
                if end == .infinity {
                    XCTAssertEqual(some.framesDecoded + some.picturesSkipped, every.framesDecoded, "every picture is decoded or skipped: \(name)")
                } else {
                    XCTAssertLessThanOrEqual(some.framesDecoded, every.framesDecoded, name)
                }
                skipped += some.picturesSkipped
                tried += 1
            }
            if c.skips {
                XCTAssertGreaterThan(skipped, 0, "\(c.path) has B-frames nothing refers to")
            } else {
                XCTAssertEqual(skipped, 0, c.path)
            }
        }
        XCTAssertEqual(tried, cases.count * 5)
    }

    /// With `sampleReferencePictures`, a sample on a picture nothing refers to moves to the
    /// reference picture shown right after it, never further and never out of its sample
    /// interval; that saves decoding the picture, and the sample's pixels are that frame's.
    func testReferenceSamplesMoveAFrameAtMostAndSaveThePicture() throws {
        var moved = 0, tried = 0
        for c in cases {
            // Every picture, with its pixels, in presentation order.
            let all = try VideoReader(path: c.path).frames(every: 1e-4, longSide: 96, options: VideoDecodeOptions(decodeEveryPicture: true)).collect()
            for (interval, start, end) in [
                (0.125, 0.0, Double.infinity), (0.25, 0.0, .infinity), (1.0 / 3, 0.0, .infinity), (0.5, 0.7, 1.6), (0.1, 0.0, 1.0),
            ] {
                let name = "\((c.path as NSString).lastPathComponent) every \(interval) s from \(start)"
                let plain = try VideoReader(path: c.path).frames(every: interval, longSide: 96, from: start, to: end)
                let expected = try plain.collect()
                let shifted = try VideoReader(path: c.path).frames(
                    every: interval, longSide: 96, from: start, to: end,
                    options: VideoDecodeOptions(sampleReferencePictures: true))
                let got = try shifted.collect()
                XCTAssertEqual(got.count, expected.count, "no sample lost: \(name)")
                var movedHere = 0
                for (g, e) in zip(got, expected) where g.time != e.time {
                    movedHere += 1
                    let at = try XCTUnwrap(all.firstIndex { $0.time == e.time }, name)
                    XCTAssertEqual(g.time, all[at + 1].time, "a frame later exactly: \(name) at \(e.time)")
                    XCTAssertEqual(
                        ((g.time + 0.0005 - start) / interval).rounded(.down), ((e.time + 0.0005 - start) / interval).rounded(.down),
                        "same sample interval: \(name) at \(e.time)")
                    XCTAssertTrue(g == all[at + 1], "pixels of that frame: \(name) at \(e.time)")
                }
                for (g, e) in zip(got, expected) where g.time == e.time { XCTAssertTrue(g == e, "pixels: \(name) at \(e.time)") }
                XCTAssertEqual(shifted.framesDecoded, plain.framesDecoded - movedHere, "each move leaves one picture undecoded: \(name)")
                moved += movedHere
                tried += 1
            }
        }
        XCTAssertEqual(tried, cases.count * 5)
        XCTAssertGreaterThan(moved, 20, "the clips with B-frames have samples on pictures nothing refers to")
    }

    /// A sample that falls on a picture nothing refers to is still decoded: at 30 fps every
    /// picture is a sample, so nothing may be skipped.
    func testEveryPictureWantedSkipsNone() throws {
        let frames = try VideoReader(path: Fixtures.path("media/h264_portrait.mp4")).frames(every: 1.0 / 60, longSide: 64)
        XCTAssertEqual(try frames.collect().count, 60)
        XCTAssertEqual(frames.picturesSkipped, 0)
    }

    // MARK: The NAL unit headers, one rule at a time

    /// A stream's parameters as a demuxer gives them: the codec and its configuration record.
    private func disposable(_ codec: AVCodecID, extradata: [UInt8]?) -> DisposablePictures? {
        var parameters = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&parameters) }
        guard let p = parameters else { XCTFail("out of memory"); return nil }
        p.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        p.pointee.codec_id = codec
        if let extradata {
            let bytes = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))!.assumingMemoryBound(to: UInt8.self)
            bytes.update(from: extradata, count: extradata.count)
            p.pointee.extradata = bytes
            p.pointee.extradata_size = Int32(extradata.count)
        }
        return DisposablePictures(parameters: p)
    }

    private func isDisposable(_ rule: DisposablePictures, _ data: [UInt8]) -> Bool {
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet, av_new_packet(packet, Int32(data.count)) == 0 else { XCTFail("out of memory"); return false }
        packet.pointee.data.update(from: data, count: data.count)
        return rule.isDisposable(packet)
    }

    /// Length-prefixed NAL units (4-byte lengths), each a header and a little payload.
    private func units(_ headers: [[UInt8]]) -> [UInt8] {
        headers.flatMap { h -> [UInt8] in
            let unit = h + [0x88, 0x84]; return [0, 0, 0, UInt8(unit.count)] + unit
        }
    }

    /// avcC, version 1, 4-byte lengths, no parameter sets.
    private let avcC: [UInt8] = [1, 0x64, 0, 0x1f, 0xff, 0xe0, 0]

    /// hvcC, version 1, 4-byte lengths, `layers` temporal sub-layers, no arrays.
    private func hvcC(layers: UInt8) -> [UInt8] {
        var record = [UInt8](repeating: 0, count: 23)
        record[0] = 1
        record[21] = layers << 3 | 3
        return record
    }

    func testH264PicturesThatNothingRefersTo() throws {
        let rule = try XCTUnwrap(disposable(AV_CODEC_ID_H264, extradata: avcC))
        let slice: [UInt8] = [0x01], referenced: [UInt8] = [0x41], idr: [UInt8] = [0x65]
        let sei: [UInt8] = [0x06], delimiter: [UInt8] = [0x09], sps: [UInt8] = [0x67], pps: [UInt8] = [0x68], end: [UInt8] = [0x0a]
        XCTAssertTrue(isDisposable(rule, units([slice])))
        XCTAssertTrue(isDisposable(rule, units([delimiter, sei, slice, slice])), "several slices, with a delimiter and SEI")
        XCTAssertFalse(isDisposable(rule, units([referenced])), "nal_ref_idc set")
        XCTAssertFalse(isDisposable(rule, units([slice, referenced])), "one referenced slice keeps the picture")
        XCTAssertFalse(isDisposable(rule, units([idr])))
        XCTAssertFalse(isDisposable(rule, units([sps, pps, slice])), "parameter sets are kept")
        XCTAssertFalse(isDisposable(rule, units([slice, end])), "an end of sequence is kept")
        XCTAssertFalse(isDisposable(rule, units([sei])), "no picture at all")
        XCTAssertFalse(isDisposable(rule, units([[0x81]])), "forbidden bit set")
        XCTAssertFalse(isDisposable(rule, Array(units([slice]).dropLast())), "a length past the packet's end")
        XCTAssertFalse(isDisposable(rule, units([slice]) + [0, 0]), "bytes left over")

        let annexB = try XCTUnwrap(disposable(AV_CODEC_ID_H264, extradata: nil), "no avcC: start codes")
        XCTAssertTrue(isDisposable(annexB, [0, 0, 0, 1, 0x09, 0xf0, 0, 0, 1, 0x01, 0x88, 0x84]))
        XCTAssertFalse(isDisposable(annexB, [0, 0, 0, 1, 0x01, 0x88, 0, 0, 1, 0x41, 0x88]))
        XCTAssertFalse(isDisposable(annexB, [0x01, 0x88, 0x84]), "no start code, no unit")
    }

    func testHEVCPicturesThatNothingRefersTo() throws {
        // Headers: type << 1, then temporal id + 1 (layer 0).
        let trailN0: [UInt8] = [0x00, 0x01], trailR0: [UInt8] = [0x02, 0x01], trailN1: [UInt8] = [0x00, 0x02], raslN: [UInt8] = [0x10, 0x01]
        let cra: [UInt8] = [0x2a, 0x01], vps: [UInt8] = [0x40, 0x01], sei: [UInt8] = [0x4e, 0x01], delimiter: [UInt8] = [0x46, 0x01]
        let otherLayer: [UInt8] = [0x00, 0x09]
        let one = try XCTUnwrap(disposable(AV_CODEC_ID_HEVC, extradata: hvcC(layers: 1)))
        XCTAssertTrue(isDisposable(one, units([trailN0])))
        XCTAssertTrue(isDisposable(one, units([delimiter, sei, raslN])))
        XCTAssertFalse(isDisposable(one, units([trailR0])))
        XCTAssertFalse(isDisposable(one, units([cra])))
        XCTAssertFalse(isDisposable(one, units([vps, trailN0])), "parameter sets are kept")
        XCTAssertFalse(isDisposable(one, units([otherLayer])), "a picture of another layer")

        // With two sub-layers, a sub-layer non-reference picture on the lower one may be referred
        // to from the higher one: only those on the highest are disposable.
        let two = try XCTUnwrap(disposable(AV_CODEC_ID_HEVC, extradata: hvcC(layers: 2)))
        XCTAssertFalse(isDisposable(two, units([trailN0])))
        XCTAssertTrue(isDisposable(two, units([trailN1])))

        XCTAssertNil(disposable(AV_CODEC_ID_HEVC, extradata: hvcC(layers: 0)), "sub-layers unknown")
        XCTAssertNil(disposable(AV_CODEC_ID_HEVC, extradata: nil), "Annex B HEVC: sub-layers unknown")
        XCTAssertNil(disposable(AV_CODEC_ID_AV1, extradata: nil))
        XCTAssertNil(disposable(AV_CODEC_ID_MPEG4, extradata: nil))
    }
}
