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


#endif
