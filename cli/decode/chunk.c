/* --chunk K/N (chunk.h). */
#include "chunk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input_file.h"

static void boundary_state(const struct dc_ctx *c, bool other, char *buf, size_t cap);

bool dc_chunk_plan(struct dc_chunk *ch, struct dc_ctx *c, struct dc_input *in, char *msg, size_t cap) {
  const struct dc_opts *o = c->o;
  ch->k = o->chunk_k;
  ch->n = o->chunk_n;
  if (!in->fb) {
    snprintf(msg, cap, "%s: --chunk needs a regular pcap file (not pcapng, a stream or UALINK_LIBPCAP=1)", in->name);
    return false;
  }
  if (in->udp_lt >= 0) { /* its frames are unwrapped, not framed in place */
    snprintf(msg, cap, "%s: --chunk does not read captures of the UDP export", in->name);
    return false;
  }
  uint64_t body = in->size - DC_FILE_FIRST;
  ch->lo = DC_FILE_FIRST + body * (ch->k - 1) / ch->n;
  ch->hi = ch->k == ch->n ? UINT64_MAX : DC_FILE_FIRST + body * ch->k / ch->n;
  uint64_t w = o->warmup;
  uint64_t *ring = malloc((size_t)(w + 1) * sizeof *ring);
  ch->tail_cap = o->overlap ? o->overlap : 1;
  ch->tail_frame = malloc(ch->tail_cap * sizeof *ch->tail_frame);
  ch->tail_off = malloc(ch->tail_cap * sizeof *ch->tail_off);
  ch->devnull = fopen("/dev/null", "w");
  ch->ov_mem = open_memstream(&ch->ov_buf, &ch->ov_len);
  if (!ring || !ch->tail_frame || !ch->tail_off || !ch->devnull || !ch->ov_mem) {
    free(ring);
    snprintf(msg, cap, "out of memory for --warmup %llu", (unsigned long long)w);
    return false;
  }
  /* the walk frames records exactly as the decode will, without decoding */
  uint64_t frame = 0, pos = dc_input_pos(in);
  for (;;) {
    if (pos >= ch->lo) break;
    const uint8_t *rec;
    size_t len;
    uint64_t ts = 0;
    enum dc_next nx = dc_input_next(in, &rec, &len, &ts);
    if (nx == DC_NEXT_ERROR) {
      free(ring);
      snprintf(msg, cap, "%s: %s", in->name, in->msg);
      return false;
    }
    if (nx != DC_NEXT_RECORD && nx != DC_NEXT_SKIP) {
      ch->empty = true; /* the framing ends in an earlier part, which reads to the end */
      break;
    }
    frame++;
    ring[frame % (w + 1)] = pos;
    if (nx == DC_NEXT_RECORD && !ch->first_ts) ch->first_ts = ts;
    pos = dc_input_pos(in);
  }
  ch->first = frame + 1;
  ch->warm_from = ch->first > w ? ch->first - w : 1;
  uint64_t v = o->overlap;
  ch->verify_from = ch->first - ch->warm_from > v ? ch->first - v : ch->warm_from;
  uint64_t off = ch->warm_from == ch->first ? pos : ring[ch->warm_from % (w + 1)];
  free(ring);
  dc_file_seek(in, off);
  c->frame = ch->warm_from - 1;
  c->tref.first = ch->first_ts;
  c->warm = ch->warm_from < ch->first;
  c->out.fp = ch->verify_from < ch->first && ch->warm_from == ch->verify_from ? ch->ov_mem : ch->devnull;
  if (!c->warm) {
    c->out.fp = stdout;
    boundary_state(c, ch->other_fabric, ch->state_start, sizeof ch->state_start);
  }
  return true;
}

/* What the merger compares at a boundary: the link state, and per direction
 * whether the stream is synchronized, AN-SYNC was raised and a flit was
 * delivered since the last reset; a hash of all the analysis state that
 * decides output from here (ual_analyzer_state_hash); the times the next
 * delta (-t d, dd) is measured from; whether records of another fabric
 * (PCIe, UB), whose analysis state is not compared, were decoded.
 * Statistics are not in it: they count from where the decode began. */
static void boundary_state(const struct dc_ctx *c, bool other, char *buf, size_t cap) {
  char text[256];
  if (c->o->stateless) {
    snprintf(buf, cap, "{\"stateless\":true}");
    return;
  }
  ual_analyzer_state_text(&c->an, text, sizeof text);
  for (char *p = text; *p; p++)
    if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = '?';
  int n = snprintf(buf, cap, "{\"text\":\"%s\",\"sync\":[", text);
  for (int d = 0; d < 2 && n > 0 && (size_t)n < cap; d++)
    n += snprintf(buf + n, cap - (size_t)n, "%s[%d,%d,%d,%d,%d]", d ? "," : "", ual_unpack_synced(&c->an.unpack[d]),
                  c->an.sync[d].reported, c->an.sync[d].flits > 0, c->an.rp.d[d].after_idle, c->an.fresh[d]);
  /* the previous timeline line (-t d, dd) and record shown (-t dd) */
  uint64_t prev_event = c->o->tfmt == DC_T_DELTA || c->o->tfmt == DC_T_DELTA_SHOWN ? c->prev_event_ts : 0;
  uint64_t prev_shown = c->o->tfmt == DC_T_DELTA_SHOWN ? c->tref.prev_shown : 0;
  if (n > 0 && (size_t)n < cap)
    snprintf(buf + n, cap - (size_t)n, "],\"hash\":\"%016llx\",\"prev_event_ts\":%llu,\"prev_shown_ts\":%llu,\"other_fabric\":%s}",
             (unsigned long long)ual_analyzer_state_hash(&c->an), (unsigned long long)prev_event,
             (unsigned long long)prev_shown, other ? "true" : "false");
}

/* From the warm-up's sinks to stdout. */
static void to_part(struct dc_chunk *ch, struct dc_ctx *c) {
  boundary_state(c, ch->other_fabric, ch->state_start, sizeof ch->state_start);
  dc_out_flush(&c->out);
  c->out.fp = stdout;
  c->out.written = 0;
  c->warm = false;
  c->error_finding = false; /* --strict judges the part's own records */
}

void dc_chunk_done(struct dc_chunk *ch, struct dc_ctx *c) {
  if (c->warm) to_part(ch, c);
}

bool dc_chunk_before(struct dc_chunk *ch, struct dc_ctx *c, uint64_t pos) {
  if (c->frame >= ch->warm_from && c->res.rec.h.kind > UAL_REC_EVENT) ch->other_fabric = true;
  if (pos >= ch->hi) {
    boundary_state(c, ch->other_fabric, ch->state_end, sizeof ch->state_end);
    return false;
  }
  uint64_t next = c->frame + 1;
  if (next == ch->verify_from && next < ch->first) {
    dc_out_flush(&c->out);
    c->out.fp = ch->ov_mem;
  }
  if (next == ch->first) to_part(ch, c);
  if (next >= ch->first) {
    ch->tail_frame[ch->tail_at] = next;
    ch->tail_off[ch->tail_at] = c->out.written + c->out.n;
    ch->tail_at = (ch->tail_at + 1) % ch->tail_cap;
    if (ch->tail_n < ch->tail_cap) ch->tail_n++;
  }
  return true;
}

bool dc_chunk_write_side(struct dc_chunk *ch, const struct dc_ctx *c, const char *path, char *msg, size_t cap) {
  if (ch->ov_mem) fflush(ch->ov_mem);
  /* the header is made in memory so that the file sees two writes whose
   * errors say why */
  char *hdr = NULL;
  size_t hdr_len = 0;
  FILE *m = open_memstream(&hdr, &hdr_len);
  if (!m) {
    snprintf(msg, cap, "out of memory for %s", path);
    return false;
  }
  uint64_t last = c->frame >= ch->first ? c->frame : ch->first - 1;
  fprintf(m,
          "{\"part\":%u,\"parts\":%u,\"first\":%llu,\"last\":%llu,\"warm_from\":%llu,\"verify_from\":%llu,"
          "\"empty\":%s,\"stopped\":%s,\"ended\":%s,\"tail\":[",
          ch->k, ch->n, (unsigned long long)ch->first, (unsigned long long)last, (unsigned long long)ch->warm_from,
          (unsigned long long)ch->verify_from, ch->empty ? "true" : "false", c->sel_stop ? "true" : "false",
          c->ended ? "true" : "false");
  for (size_t i = 0; i < ch->tail_n; i++) {
    size_t j = (ch->tail_at + ch->tail_cap - ch->tail_n + i) % ch->tail_cap;
    fprintf(m, "%s[%llu,%llu]", i ? "," : "", (unsigned long long)ch->tail_frame[j],
            (unsigned long long)ch->tail_off[j]);
  }
  size_t ov = ch->verify_from < ch->first ? ch->ov_len : 0;
  fprintf(m, "],\"state_start\":%s,\"state_end\":%s,\"overlap_bytes\":%zu}\n", ch->state_start[0] ? ch->state_start : "null",
          ch->state_end[0] ? ch->state_end : "null", ov);
  if (fclose(m) != 0) {
    free(hdr);
    snprintf(msg, cap, "out of memory for %s", path);
    return false;
  }
  FILE *fp = fopen(path, "w");
  if (!fp) {
    free(hdr);
    snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
    return false;
  }
  errno = 0;
  bool ok = fwrite(hdr, 1, hdr_len, fp) == hdr_len && (!ov || fwrite(ch->ov_buf, 1, ov, fp) == ov) && fflush(fp) == 0;
  int e = errno ? errno : EIO;
  free(hdr);
  if (fclose(fp) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    snprintf(msg, cap, "error writing %s: %s", path, strerror(e));
    return false;
  }
  return true;
}

void dc_chunk_free(struct dc_chunk *ch) {
  if (ch->ov_mem) fclose(ch->ov_mem);
  if (ch->devnull) fclose(ch->devnull);
  free(ch->ov_buf);
  free(ch->tail_frame);
  free(ch->tail_off);
  memset(ch, 0, sizeof *ch);
}
