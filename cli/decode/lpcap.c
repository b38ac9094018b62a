/* libpcap loaded at run time (lpcap.h). */
#include "lpcap.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Debian's SONAME, then upstream's */
static const char *const names[] = { "libpcap.so.0.8", "libpcap.so.1", "libpcap.so" };

static struct dc_lpcap fns;
static bool loaded;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  void *h = NULL;
  for (size_t i = 0; !h && i < sizeof names / sizeof *names; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(why, sizeof why, "cannot load libpcap (%s)", e ? e : names[0]);
    return;
  }
  const char *missing = NULL;
#define SYM(f) if (!(fns.f = (__typeof__(fns.f))dlsym(h, "pcap_" #f))) missing = "pcap_" #f
  SYM(fopen_offline_with_tstamp_precision);
  SYM(datalink);
  SYM(datalink_val_to_name);
  SYM(next_ex);
  SYM(geterr);
  SYM(file);
  SYM(close);
  SYM(snapshot);
  SYM(lib_version);
  SYM(open_dead_with_tstamp_precision);
  SYM(dump_open);
  SYM(dump_fopen);
  SYM(dump);
  SYM(dump_file);
  SYM(dump_flush);
  SYM(dump_close);
#undef SYM
  if (missing) {
    snprintf(why, sizeof why, "the libpcap loaded has no %s (libpcap 1.5 or later is needed)", missing);
    return;
  }
  loaded = true;
}

const struct dc_lpcap *dc_lpcap(char *err, size_t cap) {
  pthread_once(&once, load);
  if (loaded) return &fns;
  if (err && cap) snprintf(err, cap, "%s", why);
  return NULL;
}
