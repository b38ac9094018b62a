/* Where the TUI's records come from: a pcap file (optionally followed while it
 * grows), a pcap stream on stdin, live libpcap capture of the UDP export, or
 * the export's datagrams received on a UDP socket.
 * A source runs on its own thread and hands records to a callback. */
#ifndef UALINK_TUI_SOURCE_H
#define UALINK_TUI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ualink/core/record.h"
#include "ualink/core/udp.h"

enum tui_source_kind { TUI_SRC_FILE, TUI_SRC_FOLLOW, TUI_SRC_STDIN, TUI_SRC_LIVE, TUI_SRC_UDP };

typedef void (*tui_record_cb)(void *ctx, const uint8_t *rec, size_t len, uint64_t ts_ns);
/* Called on the source thread when the input ends or fails (error[] says
 * why, empty at a clean end); not called when stopped through stop. */
typedef void (*tui_end_cb)(void *ctx);

struct tui_source {
  enum tui_source_kind kind;
  const char *path;         /* file, interface for LIVE, listen address for UDP */
  int dlt;                  /* expected link type of files */
  int port;                 /* UDP port of the export: LIVE, UDP, and captures of it */
  tui_record_cb cb;
  tui_end_cb end;           /* optional */
  void *ctx;
  /* state, written by the source thread */
  volatile bool stop;
  volatile bool done;       /* end of input reached (not for FOLLOW/LIVE) */
  volatile bool header_pending; /* FOLLOW: the file does not have its pcap header yet */
  volatile uint64_t kernel_drops;  /* datagrams the kernel dropped (capture ring, or socket: SO_RXQ_OVFL) */
  uint64_t live_start_ns;       /* live: datagrams stamped before this are not delivered */
  int rcvbuf;                       /* UDP: the socket's receive buffer as the kernel set it */
  /* The export's sequence numbers (ual_udp_rx_step): datagrams lost, and
   * which direction's next record follows them. That record is passed on
   * with UAL_RF_LOST set, so the analysis starts over for that direction
   * instead of judging across the gap. */
  struct ual_udp_rx udp_rx;
  uint8_t lost_rec[UAL_REC_HDR_BYTES + 65536];
  /* set by open: the records come out of UDP datagrams (LIVE, or a file of
   * Ethernet/Linux cooked/raw IP frames), so their times are arrival times */
  bool udp;
  int udp_lt;               /* the frames' link type when udp */
  char error[512];          /* set when the source failed */
  /* A note on the input that is no error, set once by the source thread
   * (note_set last): the first microsecond fraction above 999999 */
  char note[160];
  volatile bool note_set;
  int8_t usec_file;         /* file via libpcap: the microsecond magic (1, 0; -1 a stream) */
  void *impl;
};

/* Opens the source (errors are reported here, before the UI starts). */
bool tui_source_open(struct tui_source *s);
/* Reads until stop or end of input: the thread body. */
void tui_source_run(struct tui_source *s);
void tui_source_close(struct tui_source *s);

/* Finds the UDP payload in a captured link-layer frame (libdecode's
 * ual_udp_payload); NULL when it is not UDP to port. Exposed for tests. */
const uint8_t *tui_udp_payload(int dlt, const uint8_t *pkt, size_t caplen, int port, size_t *len);

#endif
