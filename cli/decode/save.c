/* -w FILE (save.h). */
#include "save.h"

#include <errno.h>
#include "input_file.h"
#include "lpcap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dc_save {
  const struct dc_lpcap *L;
  pcap_t *pd;
  pcap_dumper_t *dump;
  bool to_stdout;
};

struct dc_save *dc_save_open(const char *path, int dlt, char *err, size_t cap) {
  struct dc_save *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, cap, "%s: out of memory", path);
    return NULL;
  }
  char lerr[256];
  const struct dc_lpcap *L = s->L = dc_lpcap(lerr, sizeof lerr);
  if (!L) {
    snprintf(err, cap, "%s: %s", path, lerr);
    free(s);
    return NULL;
  }
  s->pd = L->open_dead_with_tstamp_precision(dlt, DC_PCAP_MAX_SNAP, PCAP_TSTAMP_PRECISION_NANO);
  s->to_stdout = strcmp(path, "-") == 0;
  if (s->pd) s->dump = s->to_stdout ? L->dump_fopen(s->pd, stdout) : L->dump_open(s->pd, path);
  if (!s->dump) {
    const char *why = s->pd ? L->geterr(s->pd) : "pcap_open_dead failed";
    size_t n = strlen(path);
    if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2)) why += n + 2; /* libpcap named the file */
    snprintf(err, cap, "%s: %s", path, why);
    if (s->pd) L->close(s->pd);
    free(s);
    return NULL;
  }
  return s;
}

void dc_save_record(struct dc_save *s, const uint8_t *rec, size_t len, uint32_t wire_len, uint64_t ts_ns) {
  struct pcap_pkthdr h;
  memset(&h, 0, sizeof h);
  h.ts.tv_sec = (time_t)(ts_ns / 1000000000u);
  h.ts.tv_usec = (suseconds_t)(ts_ns % 1000000000u); /* nanoseconds: the dump is NANO precision */
  h.caplen = (bpf_u_int32)len;
  h.len = (bpf_u_int32)(wire_len > len ? wire_len : len);
  s->L->dump((u_char *)s->dump, &h, rec);
}

bool dc_save_close(struct dc_save *s) {
  if (!s) return true;
  FILE *fp = s->L->dump_file(s->dump);
  bool ok = s->L->dump_flush(s->dump) == 0 && !ferror(fp);
  int e = errno;
  if (s->to_stdout) {
    /* stdout stays open for the rest of the program */
    fflush(fp);
  } else {
    s->L->dump_close(s->dump);
    s->dump = NULL;
  }
  s->L->close(s->pd);
  free(s);
  errno = e;
  return ok;
}
