/* Inputs (input.h). */
#include "input.h"
#include "input_file.h"
#include "lpcap.h"
#include "ualink/ub/flit.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* stdio's default block-size buffer makes a read(2) per 4 KiB. One thread
 * at a time uses the stream (the read-ahead thread, else main), so stdio's
 * per-call locking, on once the process has two threads, is not needed. */
static void tune(FILE *fp) {
  setvbuf(fp, NULL, _IOFBF, 1u << 20);
  __fsetlocking(fp, FSETLOCKING_BYCALLER);
}

static bool open_file(struct dc_input *in, const char *mode) {
  if (strcmp(in->name, "-") == 0) {
    in->fp = stdin;
    in->is_stdin = true;
    tune(in->fp);
    return true;
  }
  in->fp = fopen(in->name, mode);
  if (!in->fp) {
    snprintf(in->msg, sizeof in->msg, "%s: %s", in->name, strerror(errno));
    return false;
  }
  struct stat st;
  if (fstat(fileno(in->fp), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      snprintf(in->msg, sizeof in->msg, "%s: %s", in->name, strerror(EISDIR));
      fclose(in->fp);
      in->fp = NULL;
      return false;
    }
    if (S_ISREG(st.st_mode)) in->size = (uint64_t)st.st_size;
  }
  tune(in->fp);
  return true;
}

/* "USER5" for 152 (libpcap has no names for the private USER types). */
static const char *dlt_label(const struct dc_lpcap *L, int dlt, char buf[16]) {
  if (dlt >= UAL_DLT_USER0 && dlt <= UAL_DLT_USER0 + 15) {
    snprintf(buf, 16, "USER%d", dlt - UAL_DLT_USER0);
    return buf;
  }
  const char *n = L->datalink_val_to_name(dlt);
  return n ? n : "unknown";
}

static bool open_pcap(struct dc_input *in, const struct dc_opts *o) {
  char err[PCAP_ERRBUF_SIZE] = "";
  if (!open_file(in, "rb")) return false;
  /* the usual case, a regular pcap file of the expected link type, without libpcap */
  if (!in->is_stdin && dc_file_open_header(in, fileno(in->fp), o->dlt)) return true;
  const struct dc_lpcap *L = in->lp = dc_lpcap(err, sizeof err);
  if (!L) {
    snprintf(in->msg, sizeof in->msg, "%s: %s", in->name, err);
    if (!in->is_stdin) fclose(in->fp);
    in->fp = NULL;
    return false;
  }
  pcap_t *p = L->fopen_offline_with_tstamp_precision(in->fp, PCAP_TSTAMP_PRECISION_NANO, err);
  if (!p) {
    /* libpcap leaves the FILE open on failure */
    if (!in->is_stdin) fclose(in->fp);
    in->fp = NULL;
    if (strstr(err, "file header bytes, only got 0")) snprintf(in->msg, sizeof in->msg, "%s: empty file", in->name);
    else snprintf(in->msg, sizeof in->msg, "%s: not a readable pcap or pcapng file (%s)", in->name, err);
    return false;
  }
  in->pcap = p;
  /* libpcap hands on nanoseconds either way; a stream's magic is gone */
  struct ual_pcap_file pf;
  uint8_t fh[UAL_PCAP_FILE_HDR];
  in->usec_file = in->is_stdin ? -1
                  : pread(fileno(in->fp), fh, sizeof fh, 0) == (ssize_t)sizeof fh && ual_pcap_file_parse(fh, &pf) && !pf.nsec;
  int dlt = L->datalink(p);
  if (dlt != o->dlt && dc_udp_input_accepts(dlt)) {
    in->udp_lt = dlt;
    in->udp_port = o->udp_port;
    ual_udp_rx_init(&in->udp_rx);
    in->arrival_times = true;
  } else if (dlt != o->dlt) {
    char b1[16], b2[16];
    snprintf(in->msg, sizeof in->msg,
             "%s: link type %d (%s) is neither the expected %d (%s) nor a capture of the UDP export (Ethernet, "
             "Linux cooked, raw IP); use --dlt N (147..162) for another USER link type",
             in->name, dlt, dlt_label(L, dlt, b1), o->dlt, dlt_label(L, o->dlt, b2));
    return false;
  }
  /* captures of the UDP export are unwrapped on libpcap's path */
  if (in->udp_lt < 0) dc_file_open(in, L);
  return true;
}

bool dc_input_open(struct dc_input *in, const struct dc_opts *o) {
  memset(in, 0, sizeof *in);
  in->name = o->path;
  in->type = o->in_type;
  in->dir = o->raw_dir;
  in->kind = o->raw_kind == UAL_REC_UB_FLIT ? UAL_REC_UB_FLIT : UAL_REC_FLIT;
  in->flit_bytes = in->kind == UAL_REC_UB_FLIT ? UAL_UB_FLIT_BYTES : UAL_FLIT_BYTES;
  in->udp_lt = -1;
  if (in->type == DC_IN_PCAP) return open_pcap(in, o);
  return open_file(in, in->type == DC_IN_RAW ? "rb" : "r");
}

/* Wraps the flit in in->rec[8..] into a record of direction dir. */
static void wrap(struct dc_input *in, int dir) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, in->kind, (unsigned)dir);
  /* the body is already in place; ual_record_build moves it onto itself */
  ual_record_build(&h, in->rec + UAL_REC_HDR_BYTES, in->flit_bytes, in->rec, sizeof in->rec);
}

static enum dc_next next_pcap(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  struct pcap_pkthdr *h;
  const u_char *data;
  int rc = in->lp->next_ex(in->pcap, &h, &data);
  if (rc == 1) {
    *rec = data;
    *len = h->caplen;
    in->wire_len = h->len;
    *ts_ns = ual_pcap_tv_sec(h->ts.tv_sec) * 1000000000u + (uint64_t)h->ts.tv_usec;
    in->frac_over = ual_pcap_frac_over_ns(h->ts.tv_usec, in->usec_file);
    if (in->udp_lt >= 0 && !dc_udp_unwrap(in, rec, len, &in->wire_len)) return DC_NEXT_SKIP;
    return DC_NEXT_RECORD;
  }
  if (rc == PCAP_ERROR_BREAK) return DC_NEXT_EOF;
  /* Offline, libpcap fails on a read error, on a record cut short by the end
   * of the input, and on a record header it refuses (libpcap 1.10: caplen
   * above 262144 for the USER link types), after which the next record's
   * position is unknown. */
  snprintf(in->msg, sizeof in->msg, "%s", in->lp->geterr(in->pcap));
  FILE *fp = in->lp->file(in->pcap);
  if (fp && ferror(fp)) return DC_NEXT_ERROR;
  return fp && !feof(fp) ? DC_NEXT_LOST : DC_NEXT_TRUNC;
}

static enum dc_next next_raw(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  size_t n = fread(in->rec + UAL_REC_HDR_BYTES, 1, in->flit_bytes, in->fp);
  if (n == 0 && !ferror(in->fp)) return DC_NEXT_EOF;
  if (ferror(in->fp)) {
    snprintf(in->msg, sizeof in->msg, "read error: %s", strerror(errno));
    return DC_NEXT_ERROR;
  }
  if (n < in->flit_bytes) {
    snprintf(in->msg, sizeof in->msg, "only %zu of %u flit bytes", n, in->flit_bytes);
    return DC_NEXT_TRUNC;
  }
  wrap(in, in->dir);
  *rec = in->rec;
  *len = UAL_REC_HDR_BYTES + in->flit_bytes;
  *ts_ns = 0;
  return DC_NEXT_RECORD;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* One flit per line: optional "A>"/"B>", 512 hex digits (40 for UB flits;
 * spaces allowed between them), '#' to the end of the line is a comment. */
static enum dc_next next_hex(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  for (;;) {
    errno = 0;
    ssize_t got = getline(&in->linebuf, &in->linecap, in->fp);
    if (got < 0) {
      if (ferror(in->fp)) {
        snprintf(in->msg, sizeof in->msg, "read error: %s", strerror(errno ? errno : EIO));
        return DC_NEXT_ERROR;
      }
      return DC_NEXT_EOF;
    }
    in->line++;
    char *s = in->linebuf;
    char *hash = strchr(s, '#');
    if (hash) *hash = 0;
    while (*s == ' ' || *s == '\t') s++;
    int dir = in->dir;
    bool prefix = (s[0] == 'A' || s[0] == 'B') && s[1] == '>';
    if (prefix) {
      dir = s[0] == 'B';
      s += 2;
    }
    unsigned nd = 0;
    bool bad = false;
    uint8_t *flit = in->rec + UAL_REC_HDR_BYTES;
    for (; *s && *s != '\n'; s++) {
      if (*s == ' ' || *s == '\t' || *s == '\r') continue;
      int v = hexval((unsigned char)*s);
      if (v < 0) { bad = true; break; }
      if (nd < 2 * in->flit_bytes) {
        if (nd & 1) flit[nd / 2] |= (uint8_t)v;
        else flit[nd / 2] = (uint8_t)(v << 4);
      }
      nd++;
    }
    if (!bad && !prefix && nd == 0) continue; /* blank or comment line */
    if (bad) {
      snprintf(in->msg, sizeof in->msg, "line %llu: '%c' is not a hex digit", (unsigned long long)in->line, *s);
      return DC_NEXT_BADLINE;
    }
    if (nd != 2 * in->flit_bytes) {
      snprintf(in->msg, sizeof in->msg, "line %llu: %u hex digits, a%s flit needs %u", (unsigned long long)in->line,
               nd, in->kind == UAL_REC_UB_FLIT ? " UB" : "", 2 * in->flit_bytes);
      return DC_NEXT_BADLINE;
    }
    wrap(in, dir);
    *rec = in->rec;
    *len = UAL_REC_HDR_BYTES + in->flit_bytes;
    *ts_ns = 0;
    return DC_NEXT_RECORD;
  }
}

volatile sig_atomic_t dc_interrupted;

static enum dc_next next(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  switch (in->type) {
  case DC_IN_PCAP: return in->fb ? dc_file_next(in, rec, len, ts_ns) : next_pcap(in, rec, len, ts_ns);
  case DC_IN_RAW: return next_raw(in, rec, len, ts_ns);
  case DC_IN_HEX: return next_hex(in, rec, len, ts_ns);
  }
  return DC_NEXT_EOF;
}

enum dc_next dc_input_next(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  if (dc_interrupted) return DC_NEXT_INTR;
  enum dc_next nx = next(in, rec, len, ts_ns);
  /* the signal cut the read short (EINTR), or raced with the end */
  return nx != DC_NEXT_RECORD && nx != DC_NEXT_SKIP && dc_interrupted ? DC_NEXT_INTR : nx;
}

uint64_t dc_input_pos(const struct dc_input *in) {
  if (in->is_stdin || !in->size) return 0;
  if (in->fb) return dc_file_pos(in);
  FILE *fp = in->pcap ? in->lp->file(in->pcap) : in->fp;
  long p = fp ? ftell(fp) : -1;
  return p > 0 ? (uint64_t)p : 0;
}

void dc_input_close(struct dc_input *in) {
  dc_file_close(in);
  if (in->pcap) {
    in->lp->close(in->pcap); /* closes the FILE, stdin included */
    in->pcap = NULL;
    in->fp = NULL;
  } else if (in->fp && !in->is_stdin) {
    fclose(in->fp);
  }
  in->fp = NULL;
  free(in->linebuf);
  in->linebuf = NULL;
}
