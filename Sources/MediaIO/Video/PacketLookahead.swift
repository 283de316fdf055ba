import CFFmpeg
import GlimtCore

/// One stream's packets in decode order, read far enough ahead of the decoder, when asked, that
/// each picture's neighbours in presentation order are known before it is decoded (a B-frame
/// comes before pictures shown ahead of it). Decode stamps only grow, so once a packet decoded
/// at or after a picture's presentation stamp has been read, nothing shown before it can follow.
final class PacketLookahead {
    /// A packet to decode, owned by the caller (`av_packet_free`).
    struct Next {
        var packet: UnsafeMutablePointer<AVPacket>
        /// The presentation stamp of the picture shown just before this one (nil: none, or not
        /// known), and whether any picture is shown after it; only when `placed`.
        var previousStamp: Int64?
        var hasLater = false
        var placed = false
        /// The picture shown just after this one and whether no other picture needs it; only
        /// when `placed`, the lookahead was made with `disposable`, and that picture is surely
        /// the next one shown (a packet decoded at or after its presentation stamp has been read).
        var following: (stamp: Int64, disposable: Bool)?
    }

    private let input: MediaInput
    private let streamIndex: Int32
    private var queued: [UnsafeMutablePointer<AVPacket>] = []
    /// Presentation stamps of the packets handed on, newest last: more than any reordering spans;
    /// with whether `disposable` said so of each (false without it).
    private var handedOn: [(stamp: Int64, disposable: Bool)] = []
    /// Whether a packet holds a picture no other picture needs; nil: `following` is not looked for.
    private let disposable: ((UnsafePointer<AVPacket>) -> Bool)?
    private var lastDecodeStamp: Int64?
    private var ended = false
    /// Every packet has been handed on.
    var exhausted: Bool { ended && queued.isEmpty }
    /// Why demuxing stopped before the end of the file, if it did.
    private(set) var failure: String?

    private static let nopts = glimt_av_nopts_value()
    /// Far more than any stream reorders (H.264 and HEVC allow 16 pictures).
    private static let maxAhead = 48
    private static let remembered = 48

    init(input: MediaInput, streamIndex: Int32, disposable: ((UnsafePointer<AVPacket>) -> Bool)? = nil) {
        self.input = input
        self.streamIndex = streamIndex
        self.disposable = disposable
    }

    deinit { reset() }

    /// Forgets everything read (after a seek).
    func reset() {
        for packet in queued {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
        queued.removeAll()
        handedOn.removeAll()
        lastDecodeStamp = nil
        ended = false
        failure = nil
    }

    /// The next packet of the stream; nil at the end of the file or at a demuxing error
    /// (`failure`). With `placing`, reads ahead until the packet's neighbours are known.
    func next(placing: Bool) throws -> Next? {
        if queued.isEmpty { try read() }
        guard let head = queued.first else { return nil }
        let stamp = head.pointee.pts
        var next = Next(packet: head)
        if placing && stamp != Self.nopts && head.pointee.flags & AV_PKT_FLAG_DISCARD == 0 {
            // The proof must come from a packet after this one (a demuxer may stamp a packet's decode time with its presentation time).
            func proven() -> Bool { queued.count >= 2 && (lastDecodeStamp ?? Self.nopts) >= stamp }
            while !ended && queued.count < Self.maxAhead && !proven() {
                try read()
            }
            if ended || proven() {
                next.placed = true
                for other in handedOn.map(\.stamp) + queued.lazy.filter(Self.shown).map(\.pointee.pts) where other != Self.nopts {
                    if other > stamp {
                        next.hasLater = true
                    } else if other != stamp {
                        next.previousStamp = max(next.previousStamp ?? other, other)
                    }
                }
                if next.hasLater, disposable != nil { next.following = try following(stamp) }
            }
        }
        queued.removeFirst()
        if Self.shown(head) && stamp != Self.nopts {
            handedOn.append((stamp, disposable?(head) ?? false))
            if handedOn.count > Self.remembered { handedOn.removeFirst(handedOn.count - Self.remembered) }
        }
        return next
    }

    /// The picture shown right after the one at `stamp`, reading ahead until no packet still to
    /// come can be shown between them (decode stamps only grow, and none exceeds its
    /// presentation stamp); nil if the lookahead's reach ends first.
    private func following(_ stamp: Int64) throws -> (stamp: Int64, disposable: Bool)? {
        while true {
            var nearest: (stamp: Int64, disposable: Bool)?
            for other in handedOn where other.stamp > stamp && other.stamp < (nearest?.stamp ?? .max) { nearest = other }
            var packet: UnsafeMutablePointer<AVPacket>?
            for p in queued where Self.shown(p) && p.pointee.pts != Self.nopts && p.pointee.pts > stamp && p.pointee.pts < (nearest?.stamp ?? .max) {
                nearest = (p.pointee.pts, false)
                packet = p
            }
            guard let nearest else { return nil }
            if ended || (lastDecodeStamp ?? Self.nopts) >= nearest.stamp {
                // Only the packet found nearest is parsed, not every one queued.
                return packet.map { (nearest.stamp, disposable?($0) ?? false) } ?? nearest
            }
            guard queued.count < Self.maxAhead else { return nil }
            try read()
        }
    }

    /// Packets the demuxer marks as cut by an edit list are decoded but never shown.
    private static func shown(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0
    }

    private func read() throws {
        guard !ended else { return }
        guard let packet = av_packet_alloc() else { throw GlimtError("out of memory", path: input.path) }
        while true {
            // A demuxer can spin without any I/O that the bound would stop.
            try input.checkTimeBound()
            let status = av_read_frame(input.context, packet)
            if status < 0 {
                if status != glimt_averror_eof() { failure = ffmpegReason(status) }
                ended = true
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
                return
            }
            if packet.pointee.stream_index == streamIndex { break }
            av_packet_unref(packet)
        }
        // A stream without decode stamps never proves a picture placed: it is all decoded.
        if packet.pointee.dts != Self.nopts { lastDecodeStamp = packet.pointee.dts }
        queued.append(packet)
    }
}
