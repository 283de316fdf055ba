// The FFmpeg headers glimt-pure uses, plus the few macros Swift cannot import.
#ifndef GLIMT_CFFMPEG_SHIM_H
#define GLIMT_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/pixdesc.h>
#include <libavutil/mastering_display_metadata.h>

static inline int glimt_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int glimt_averror_eof(void) { return AVERROR_EOF; }
static inline int glimt_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int glimt_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int64_t glimt_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational glimt_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int glimt_averror_eperm(void) { return AVERROR(EPERM); }

// A stream's display matrix (rotation of phone video, HEIF irot/imir): codecpar's coded side data
// from FFmpeg 6.1 on, the stream's side data before. NULL when absent or short.
static inline const int32_t *glimt_stream_display_matrix(const AVStream *st) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 100)
    const AVPacketSideData *sd = av_packet_side_data_get(st->codecpar->coded_side_data,
                                                         st->codecpar->nb_coded_side_data,
                                                         AV_PKT_DATA_DISPLAYMATRIX);
    return (sd && sd->size >= 9 * sizeof(int32_t)) ? (const int32_t *)sd->data : NULL;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return (data && size >= 9 * sizeof(int32_t)) ? (const int32_t *)data : NULL;
#endif
}

// How long a decoded frame is shown, in the stream's time base (0 if unknown): AVFrame.duration
// from FFmpeg 6.0 on, pkt_duration before.
static inline int64_t glimt_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(58, 2, 100)
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

// The timestamp of the first frame a stream's index lists whose bytes end past `file_size` (a
// file cut short of what its index promises), or AV_NOPTS_VALUE when every listed frame is there.
static inline int64_t glimt_first_indexed_past(AVStream *st, int64_t file_size) {
    int count = avformat_index_get_entries_count(st);
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *e = avformat_index_get_entry(st, i);
        if (e && e->pos >= 0 && e->pos + e->size > file_size) return e->timestamp;
    }
    return AV_NOPTS_VALUE;
}

#endif
