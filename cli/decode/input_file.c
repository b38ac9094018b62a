/* Regular pcap files read in blocks and framed in place (input_file.h).
 * A pcap 2.4 header of the expected link type is checked here, as libpcap
 * 1.10 checks it (sf-pcap.c, pcap_check_header), any other one by libpcap;
 * from the first record on, records are framed here as libpcap frames them
 * (pcap_next_packet), so every problem reads the same. Why not libpcap: it
 * copies every record out of stdio's buffer, which the kernel copied into
 * in 4 KiB... 1 MiB steps; here one pread(2) of 1 MiB and the records are
 * used where they lie. Why not mmap: on the development VM the first
 * user-space touch of mapped page-cache pages costs about four times the
 * kernel's copy (bench/README.md). */
#include "input_file.h"

#include <errno.h>
#include "lpcap.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC_HDR DC_FILE_REC_HDR

struct dc_file {
  int fd;
  uint64_t off;         /* file offset of the next read */
  bool swapped, nsec, eof;
  uint32_t snap;
  /* dc_file_next's block: buf[at..len) not yet framed */
  size_t at, len;
  uint8_t buf[DC_FILE_BLOCK];
};

static bool start(struct dc_input *in, int fd, bool swapped, bool nsec, uint32_t snap) {
  struct dc_file *f = malloc(sizeof *f);
  if (!f) return false;
  f->fd = fd;
  f->off = DC_FILE_FIRST;
  f->swapped = swapped;
  f->nsec = nsec;
  f->eof = false;
  f->snap = snap;
  f->at = f->len = 0;
  in->fb = f;
  return true;
}

static bool backend_off(const struct dc_input *in) {
  return in->is_stdin || in->size < DC_FILE_FIRST || getenv("UALINK_LIBPCAP");
}

/* The file header at offset 0 of fd, a standard pcap 2.4 one (no variant
 * such as Kuznetzov's; older versions may swap caplen and len, libpcap's
 * lengths_swapped): false for any other. */
static bool read_header(int fd, struct ual_pcap_file *hd) {
  uint8_t h[DC_FILE_FIRST];
  if (fd < 0 || pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h) return false;
  return ual_pcap_file_parse(h, hd) && hd->major == 2 && hd->minor == 4;
}

bool dc_file_open(struct dc_input *in, const struct dc_lpcap *L) {
  struct ual_pcap_file hd;
  if (backend_off(in) || !in->pcap) return false;
  int fd = fileno(L->file(in->pcap));
  if (!read_header(fd, &hd)) return false;
  return start(in, fd, hd.swapped, hd.nsec, (uint32_t)L->snapshot(in->pcap));
}

bool dc_file_open_header(struct dc_input *in, int fd, int dlt) {
  struct ual_pcap_file hd;
  /* the whole link type field: no FCS length or other bits above the type */
  if (backend_off(in) || !read_header(fd, &hd) || hd.linktype != (uint32_t)dlt) return false;
  /* libpcap's pcap_adjust_snapshot for the USER types */
  uint32_t snap = hd.snaplen == 0 || hd.snaplen > DC_PCAP_MAX_SNAP ? DC_PCAP_MAX_SNAP : hd.snaplen;
  return start(in, fd, hd.swapped, hd.nsec, snap);
}

void dc_file_close(struct dc_input *in) {
  free(in->fb); /* the descriptor is the input's FILE's */
  in->fb = NULL;
}

static int trunc_msg(char *msg, const char *what, size_t want, size_t got) {
  snprintf(msg, DC_FILE_MSG, "truncated dump file; tried to read %zu %s bytes, only got %zu", want, what, got);
  return DC_NEXT_TRUNC;
}

int dc_file_frame(const struct dc_input *in, const uint8_t *p, size_t avail, bool at_eof, struct dc_frame *fr,
                  char msg[DC_FILE_MSG]) {
  const struct dc_file *f = in->fb;
  if (avail < REC_HDR) {
    if (!at_eof) return DC_FILE_MORE;
    return avail ? trunc_msg(msg, "header", REC_HDR, avail) : DC_NEXT_EOF;
  }
  struct ual_pcap_rec h;
  ual_pcap_rec_parse(p, f->swapped, &h);
  uint32_t caplen = h.caplen;
  if (caplen > DC_PCAP_MAX_SNAP) {
    if (caplen > f->snap)
      snprintf(msg, DC_FILE_MSG, "invalid packet capture length %u, bigger than snaplen of %d", caplen, (int)f->snap);
    else
      snprintf(msg, DC_FILE_MSG, "invalid packet capture length %u, bigger than maximum of %u", caplen, DC_PCAP_MAX_SNAP);
    return DC_NEXT_LOST;
  }
  size_t body = avail - REC_HDR;
  if (body < caplen) {
    if (!at_eof) return DC_FILE_MORE;
    /* libpcap reads the snapshot length first, then skips the rest */
    if (caplen > f->snap && body < f->snap) return trunc_msg(msg, "captured", f->snap, body);
    return trunc_msg(msg, "captured", caplen, body);
  }
  fr->ts_ns = ual_pcap_rec_ns(&h, f->nsec);
  fr->frac_over = ual_pcap_frac_over(h.frac, f->nsec) ? h.frac : 0;
  fr->wire_len = h.len;
  fr->len = caplen > f->snap ? f->snap : caplen; /* cut to the snapshot length, the rest skipped */
  fr->used = REC_HDR + caplen;
  return DC_NEXT_RECORD;
}

size_t dc_file_need(const struct dc_input *in, const uint8_t *p, size_t avail) {
  return avail < REC_HDR ? REC_HDR : REC_HDR + ual_pcap_rec_caplen(p, in->fb->swapped);
}

ssize_t dc_file_pread(const struct dc_input *in, uint8_t *buf, size_t cap, uint64_t off, char msg[DC_FILE_MSG]) {
  size_t got = 0;
  while (got < cap) {
    ssize_t r = pread(in->fb->fd, buf + got, cap - got, (off_t)(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      snprintf(msg, DC_FILE_MSG, "error reading dump file: %s", strerror(errno));
      return -1;
    }
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

enum dc_next dc_file_next(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  struct dc_file *f = in->fb;
  for (;;) {
    struct dc_frame fr;
    int nx = dc_file_frame(in, f->buf + f->at, f->len - f->at, f->eof, &fr, in->msg);
    if (nx == DC_NEXT_RECORD) {
      *rec = f->buf + f->at + REC_HDR;
      *len = fr.len;
      *ts_ns = fr.ts_ns;
      in->wire_len = fr.wire_len;
      in->frac_over = fr.frac_over;
      f->at += fr.used;
      return DC_NEXT_RECORD;
    }
    if (nx != DC_FILE_MORE) {
      f->at = f->len;
      return (enum dc_next)nx;
    }
    /* the record continues past the block: its start to the front, read on */
    memmove(f->buf, f->buf + f->at, f->len - f->at);
    f->len -= f->at;
    f->at = 0;
    ssize_t r = dc_file_pread(in, f->buf + f->len, DC_FILE_READ, f->off, in->msg);
    if (r < 0) return DC_NEXT_ERROR;
    if (r == 0) f->eof = true;
    f->len += (size_t)r;
    f->off += (uint64_t)r;
  }
}
uint64_t dc_file_pos(const struct dc_input *in) { return in->fb->off - (in->fb->len - in->fb->at); }

void dc_file_seek(struct dc_input *in, uint64_t off) {
  struct dc_file *f = in->fb;
  f->off = off;
  f->at = f->len = 0;
  f->eof = false;
}
