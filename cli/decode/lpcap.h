/* libpcap, loaded when first needed (dlopen). A regular pcap file of the
 * expected link type is read without it (input.c, input_file.c); loading it
 * brings D-Bus, systemd and libgcrypt along, about 4 ms of an 11 ms decode of
 * a small capture on the development VM. pcapng, streams, other link types,
 * -w and --version load it. */
#ifndef UAL_DC_LPCAP_H
#define UAL_DC_LPCAP_H

#include <pcap/pcap.h>
#include <stddef.h>

struct dc_lpcap {
  __typeof__(pcap_fopen_offline_with_tstamp_precision) *fopen_offline_with_tstamp_precision;
  __typeof__(pcap_datalink) *datalink;
  __typeof__(pcap_datalink_val_to_name) *datalink_val_to_name;
  __typeof__(pcap_next_ex) *next_ex;
  __typeof__(pcap_geterr) *geterr;
  __typeof__(pcap_file) *file;
  __typeof__(pcap_close) *close;
  __typeof__(pcap_snapshot) *snapshot;
  __typeof__(pcap_lib_version) *lib_version;
  __typeof__(pcap_open_dead_with_tstamp_precision) *open_dead_with_tstamp_precision;
  __typeof__(pcap_dump_open) *dump_open;
  __typeof__(pcap_dump_fopen) *dump_fopen;
  __typeof__(pcap_dump) *dump;
  __typeof__(pcap_dump_file) *dump_file;
  __typeof__(pcap_dump_flush) *dump_flush;
  __typeof__(pcap_dump_close) *dump_close;
};

/* The functions, loaded on the first call (thread-safe); NULL when libpcap
 * cannot be loaded, with why in err. */
const struct dc_lpcap *dc_lpcap(char *err, size_t cap);

#endif
