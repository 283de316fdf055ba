import CFFmpeg

/// Which packets of an H.264 or HEVC stream hold a picture that no other picture is predicted
/// from (most B-frames), read from the NAL unit headers: a reader that does not want such a
/// picture can leave it undecoded, and every other picture still decodes to the same pixels.
///
/// Whatever it cannot be sure of is kept: parameter sets, end-of-sequence marks, data
/// partitions, layered streams, other codecs, and any packet it cannot parse.
struct DisposablePictures {
    private enum Syntax {
        case h264
        /// An HEVC "sub-layer non-reference" picture may still be referred to from a higher
        /// temporal sub-layer: only those on the highest one are disposable.
        case hevc(highestSubLayer: Int)
    }

    private let syntax: Syntax
    /// Bytes of each NAL unit's length prefix (MP4 and Matroska); 0: Annex B start codes.
    private let lengthSize: Int

    init?(parameters: UnsafePointer<AVCodecParameters>) {
        let extra = parameters.pointee.extradata
        let extraCount = Int(parameters.pointee.extradata_size)
        switch parameters.pointee.codec_id {
        case AV_CODEC_ID_H264:
            syntax = .h264
            // avcC: version 1, lengthSizeMinusOne in byte 4. Otherwise the stream is Annex B.
            if let extra, extraCount >= 7, extra[0] == 1 {
                lengthSize = Int(extra[4] & 3) + 1
            } else {
                lengthSize = 0
            }
        case AV_CODEC_ID_HEVC:
            // hvcC byte 21: numTemporalLayers (bits 3-5; 0 is "unknown") and lengthSizeMinusOne.
            guard let extra, extraCount >= 23, extra[0] == 1 else { return nil }
            let subLayers = Int(extra[21] >> 3) & 7
            guard subLayers > 0 else { return nil }
            syntax = .hevc(highestSubLayer: subLayers - 1)
            lengthSize = Int(extra[21] & 3) + 1
        default:
            return nil
        }
        if lengthSize == 3 { return nil }  // reserved
    }

    func isDisposable(_ packet: UnsafePointer<AVPacket>) -> Bool {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { return false }
        let bytes = UnsafeBufferPointer(start: UnsafePointer(data), count: Int(packet.pointee.size))
        var verdict = Verdict()
        if lengthSize > 0 {
            var at = 0
            while at < bytes.count {
                guard at + lengthSize <= bytes.count else { return false }
                var length = 0
                for i in 0..<lengthSize { length = length << 8 | Int(bytes[at + i]) }
                at += lengthSize
                guard length >= 2, length <= bytes.count - at else { return false }
                guard verdict.add(unit(bytes[at], bytes[at + 1])) else { return false }
                at += length
            }
        } else {
            // Annex B: a unit starts after each 00 00 01 (emulation prevention keeps it out of payloads).
            var at = 2
            while at + 2 < bytes.count {
                if bytes[at] == 1 && bytes[at - 1] == 0 && bytes[at - 2] == 0 {
                    guard verdict.add(unit(bytes[at + 1], bytes[at + 2])) else { return false }
                    at += 3
                } else {
                    at += 1
                }
            }
        }
        return verdict.sawPicture
    }

    private enum Unit { case disposablePicture, harmless, keep }

    private struct Verdict {
        var sawPicture = false
        mutating func add(_ unit: Unit) -> Bool {
            switch unit {
            case .disposablePicture: sawPicture = true; return true
            case .harmless: return true
            case .keep: return false
            }
        }
    }

    private func unit(_ first: UInt8, _ second: UInt8) -> Unit {
        guard first & 0x80 == 0 else { return .keep }  // forbidden_zero_bit
        switch syntax {
        case .h264:
            let type = first & 0x1f, referenced = first & 0x60 != 0
            switch type {
            case 1: return referenced ? .keep : .disposablePicture  // a slice of a non-IDR picture
            case 6, 9, 12: return .harmless  // SEI, access unit delimiter, filler
            default: return .keep  // IDR, partitions, parameter sets, end of sequence, extensions
            }
        case .hevc(let highestSubLayer):
            let type = (first >> 1) & 0x3f
            let layer = Int(first & 1) << 5 | Int(second >> 3)
            let subLayer = Int(second & 7) - 1
            guard layer == 0 else { return .keep }
            switch type {
            case 0, 2, 4, 6, 8, 10, 12, 14:  // TRAIL_N, TSA_N, STSA_N, RADL_N, RASL_N, reserved _N
                return subLayer == highestSubLayer ? .disposablePicture : .keep
            case 35, 38, 39, 40: return .harmless  // access unit delimiter, filler, SEI
            default: return .keep
            }
        }
    }
}
