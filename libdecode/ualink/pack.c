/* TL flit packing and unpacking (digest §2.2-§2.4; spec §2.3.5, §2.3.6).
 *
 * Each segment is filled in this order, sector by sector:
 *
 *   SHk | alt DWord | carry-over of the open TL flit | new TL flit ... | zero fill
 *         (DLAltSector) (crosses segments and flits)  (TLBeat != 0,
 *                                                      at most one per segment)
 *
 * A TL flit is 16 sectors; TL sector i is bytes 4i..4i+3, copied as they are.
 * Sectors of one segment are contiguous flit bytes, so runs are one memcpy. */
#include "ualink/ualink/pack.h"
#include "layout.h"

#include <string.h>

#define TL_Q UAL_PACK_TL_QUEUE
#define MSG_Q UAL_PACK_MSG_QUEUE

/* The unallocated part of one segment, as flit-wide sector numbers [next, end). */
struct seg_cursor { unsigned next, end; };

static struct seg_cursor seg_open(int k) {
  struct seg_cursor c = { ual_segment_map[k].first_sector,
                          (unsigned)ual_segment_map[k].first_sector + ual_segment_map[k].n_sectors };
  return c;
}

/* Sectors of a TL flit that the segment can still take, having sent `have`. */
static unsigned tl_run(const struct seg_cursor *c, unsigned have) {
  unsigned owed = UAL_TL_FLIT_SECTORS - have, room = c->end - c->next;
  return owed < room ? owed : room;
}

static bool is_transport(uint32_t dw, struct ual_dlmsg *m) {
  ual_dlmsg_decode(dw, m);
  return m->type == UAL_MT_UART_TRANSPORT;
}

/* Payload DWords of a UART Stream Transport header, 0 for another message:
 * all the packer needs to know of a message (no full decode per DWord). */
static unsigned transport_payload(uint32_t dw) {
  uint8_t b[4];
  ual_put_le32(b, dw);
  if (ual_msg_classify((unsigned)ual_field_get(UAL_F_MSG_MCLASS, b), (unsigned)ual_field_get(UAL_F_MSG_MTYPE, b)) !=
      UAL_MT_UART_TRANSPORT)
    return 0;
  return (unsigned)ual_field_get(UAL_F_UTX_LENGTH, b) + 1u;
}

/* ---- unpacker ---- */

void ual_unpack_init(struct ual_unpack *u) { memset(u, 0, sizeof *u); }

#define MSG_READINGS ((2ull << UAL_UART_MAX_PAYLOAD) - 1u)   /* 0..32 DWords owed */

#define TL_CANDS ((1u << UAL_TL_FLIT_SECTORS) - 1u)          /* carry-over 0..15 sectors */

void ual_unpack_init_midstream(struct ual_unpack *u) {
  memset(u, 0, sizeof *u);
  u->tl_cands = TL_CANDS;
  u->msg_owed = MSG_READINGS;
}

bool ual_unpack_synced(const struct ual_unpack *u) { return !u->tl_cands && !u->msg_owed; }

/* An alternate sector while the message stream is unknown: each reading
 * that owes payload takes the DWord as payload, the reading that owes
 * nothing takes it as a header (a transport then owes Length+1). Readings
 * that meet are one from then on; when only "nothing owed" is left, the
 * next DWord is a header. */
static void unsynced_alt(struct ual_unpack *u, uint32_t dw, int k, struct ual_unpack_out *out) {
  out->alt_role[k] = UAL_ALT_UNSYNCED;
  uint64_t next = u->msg_owed >> 1;
  if (u->msg_owed & 1u) next |= 1ull << transport_payload(dw);
  u->msg_owed = next == 1u ? 0 : next;
  if (!u->msg_owed) out->msg_synced_at = (int8_t)k;
}

/* A segment without an alternate sector: no transport was open (a gap in
 * one is DM-UART-INTERLEAVE). */
static void unsynced_gap(struct ual_unpack *u, int k, struct ual_unpack_out *out) {
  if (!(u->msg_owed & 1u)) return;
  u->msg_owed = 0;
  out->msg_synced_at = (int8_t)k;
}

/* The carry-over candidates after a segment of `room` TL sectors (after
 * its alternate sector) whose last `zeros` sectors are zero. Carry-over c
 * takes min(c, room) sectors. A start needs an unallocated sector (c <
 * room) and its TL flit then owes 16 - (room - c) = c + 16 - room. Without
 * a start the rest is zero fill: a c <= room ends here (0) if it leaves no
 * non-zero sector as fill, a longer one owes c - room. Returns the
 * candidates that keep the rules; *broken gets those that break one (a
 * start without room, non-zero fill), moved as the decoder moves on from
 * it (start ignored, fill passed). */
static uint32_t tl_cands_next(uint32_t cands, unsigned room, unsigned zeros, bool start, uint32_t *broken) {
  uint32_t upto = (2u << room) - 1u;                          /* c <= room */
  uint32_t fill_ok = cands & upto & ~((1u << (room - zeros)) - 1u);
  if (start) {
    *broken = cands >> room;
    return (cands & (upto >> 1)) << (UAL_TL_FLIT_SECTORS - room);
  }
  *broken = (cands & upto & ~fill_ok) != 0;
  return (cands >> room) | (fill_ok != 0);
}

/* A segment while the carry-over is unknown: its TL sectors are skipped and
 * each candidate carry-over moves as the segment's size, start and zero
 * tail say. A candidate that needs a broken rule is kept aside (a capture
 * may begin just before a DL-TL-NO-ROOM or DL-ZERO-FILL), one that needs
 * two is dropped. When one candidate is left the boundaries are known. A
 * TL flit left open that began in this segment fills its last sectors and
 * is staged as the packed stream would have it; one that began before is
 * skipped to its end (tl_lost). */
static void unsynced_tl(struct ual_unpack *u, const struct ual_flit_view *v, const uint8_t *flit,
                        const struct seg_cursor *c, int k, struct ual_sh sh, uint64_t frame,
                        struct ual_unpack_out *out, bool bytes) {
  /* a segment's sectors are contiguous flit bytes: one 32-bit load each */
  const uint8_t *q = flit + ual_sector_byte(c->next);
  unsigned n = out->partial_sectors, room = c->end - c->next;
  for (unsigned s = c->next; s < c->end; s++, q += UAL_SECTOR_BYTES) {
    uint32_t w;
    memcpy(&w, q, sizeof w);
    n += w != 0;
  }
  /* an invalid TLBeat starts nothing and its sectors are not judged as fill */
  bool start = sh.tlbeat != UAL_TB_NONE && sh.tlbeat != UAL_TB_INVALID;
  unsigned zeros = sh.tlbeat == UAL_TB_INVALID || v->zero_tail[k] > room ? room : v->zero_tail[k];
  uint32_t broken0, broken1;
  uint32_t kept0 = tl_cands_next(u->tl_cands & TL_CANDS, room, zeros, start, &broken0);
  uint32_t kept1 = tl_cands_next(u->tl_cands >> UAL_TL_FLIT_SECTORS, room, zeros, start, &broken1);
  uint32_t bent = (kept1 | broken0) & ~kept0, all = kept0 | bent;
  if (!all) {                    /* more than one rule broken: nothing is known */
    u->tl_cands = TL_CANDS;
    out->partial_sectors = (uint8_t)(n < UINT8_MAX ? n : UINT8_MAX);
    return;
  }
  u->tl_cands = kept0 | bent << UAL_TL_FLIT_SECTORS;
  if (!(all & (all - 1u))) {
    unsigned owed = (unsigned)__builtin_ctz(all), have = UAL_TL_FLIT_SECTORS - owed;
    bool started = start && ((kept0 | kept1) & all);          /* the start was not ignored */
    u->tl_cands = 0;
    out->tl_synced_at = (int8_t)k;
    if (started && !owed) {
      if (out->n_tl < UAL_MAX_TL_PER_FLIT) {       /* carry-over 0 and a whole TL flit here */
        struct ual_tl_flit *t = &out->tl[out->n_tl++];
        if (bytes) memcpy(t->data, flit + ual_sector_byte(c->end - UAL_TL_FLIT_SECTORS), UAL_TL_FLIT_BYTES);
        t->m0 = sh.m0;
        t->m1 = sh.m1;
        t->start_segment = (uint8_t)k;
        t->start_frame = frame;
      }
      out->tl_started++;
    } else if (started) {        /* its first `have` sectors end the segment */
      u->tl_have = (uint8_t)have;
      u->m0 = sh.m0;
      u->m1 = sh.m1;
      u->tl_seg = (uint8_t)k;
      u->tl_frame = frame;
      out->tl_started++;
      if (bytes) memcpy(u->tl, flit + ual_sector_byte(c->end - have), UAL_SECTOR_BYTES * have);
      n -= have < n ? have : n;
    } else if (owed) {
      u->tl_have = (uint8_t)have;
      u->tl_lost = 1;
      n += owed;
    }
  }
  out->partial_sectors = (uint8_t)(n < UINT8_MAX ? n : UINT8_MAX);
}

bool ual_unpack_partial(const struct ual_unpack *u) { return u->tl_have != 0 || u->uart_need != 0; }

/* A message is checked where it completes; its findings name the header's segment. */
static void msg_done(const struct ual_dl_item *it, struct ual_unpack_out *out, struct ual_findings *f) {
  ual_dlmsg_check(&it->msg, it->segment, f);
  if (out->n_msg < UAL_MAX_MSG_PER_FLIT) out->msg[out->n_msg++] = *it;
}

/* The segment's alternate sector: the next payload DWord of an open UART
 * Stream Transport whatever its contents, else a new message. */
static void unpack_alt(struct ual_unpack *u, uint32_t dw, int k, uint64_t frame,
                       struct ual_unpack_out *out, struct ual_findings *f) {
  if (u->uart_need) {
    out->alt_role[k] = UAL_ALT_UART_PAYLOAD;
    u->uart.payload[u->uart.n_payload++] = dw;
    if (--u->uart_need == 0) msg_done(&u->uart, out, f);
    return;
  }
  out->alt_role[k] = UAL_ALT_MESSAGE;
  struct ual_dl_item it;
  memset(&it, 0, sizeof it);
  it.start_frame = frame;
  it.segment = (uint8_t)k;
  if (is_transport(dw, &it.msg)) {
    u->uart = it;
    u->uart_need = (uint8_t)(it.msg.length + 1u);
  } else {
    msg_done(&it, out, f);
  }
}

/* Continues the open TL flit into the segment; completes it when all 16
 * sectors are in. A TL flit that lies whole in the segment is copied once.
 * Without bytes only the counts move (ual_unpack_flit_nobytes). */
static inline __attribute__((always_inline)) void unpack_tl(struct ual_unpack *u, const uint8_t *flit,
                                                              struct seg_cursor *c, struct ual_unpack_out *out,
                                                              bool bytes) {
  unsigned n = tl_run(c, u->tl_have);
  const uint8_t *src = flit + ual_sector_byte(c->next);
  c->next += n;
  if (u->tl_have + n < UAL_TL_FLIT_SECTORS) {
    if (bytes) memcpy(u->tl + UAL_SECTOR_BYTES * u->tl_have, src, UAL_SECTOR_BYTES * n);
    u->tl_have = (uint8_t)(u->tl_have + n);
    return;
  }
  unsigned have = u->tl_have;
  u->tl_have = 0;
  if (u->tl_lost) {              /* begun before the boundaries were known */
    u->tl_lost = 0;
    return;
  }
  if (out->n_tl >= UAL_MAX_TL_PER_FLIT) return;
  struct ual_tl_flit *t = &out->tl[out->n_tl++];
  if (bytes) {
    /* a fixed-size copy of the whole staging buffer beats a variable one
     * (rep movs); its tail is overwritten by this segment's sectors */
    memcpy(t->data, u->tl, UAL_TL_FLIT_BYTES);
    memcpy(t->data + UAL_SECTOR_BYTES * have, src, UAL_SECTOR_BYTES * n);
  }
  t->m0 = u->m0;
  t->m1 = u->m1;
  t->start_segment = u->tl_seg;
  t->start_frame = u->tl_frame;
}

/* The unallocated sectors are contiguous flit bytes: one scan, and the
 * sector-by-sector count only when something is there. */
static void check_zero_fill(const uint8_t *flit, const struct ual_flit_view *v, const struct seg_cursor *c, int k,
                            struct ual_findings *f) {
  if (c->end - c->next <= v->zero_tail[k]) return; /* the view knows: no read of the flit */
  const uint8_t *p = flit + ual_sector_byte(c->next);
  size_t len = UAL_SECTOR_BYTES * (size_t)(c->end - c->next);
  uint64_t any = 0, w;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    memcpy(&w, p + i, 8);
    any |= w;
  }
  for (; i < len; i++) any |= p[i];
  if (!any) return;
  unsigned first = 0, bad = 0;
  for (unsigned s = c->next; s < c->end; s++) {
    const uint8_t *q = flit + ual_sector_byte(s);
    if (!(q[0] | q[1] | q[2] | q[3])) continue;
    if (!bad++) first = s;
  }
  ual_findings_add(f, UAL_R_DL_ZERO_FILL, k, "SH%d: unallocated sector S%u is %08xh, not 0 (%u sector%s)", k,
                   first, ual_get_le32(flit + ual_sector_byte(first)), bad, bad > 1 ? "s" : "");
}

/* bytes is a constant in each caller: two copies, one without any copy of
 * TL bytes. v is the flit's view: without TL bytes the flit itself is read
 * only before the stream is synchronized and for a zero-fill finding. */
static inline __attribute__((always_inline)) void unpack_flit(struct ual_unpack *u, const struct ual_flit_view *v,
                                                                const uint8_t *flit, uint64_t frame,
                                                                struct ual_unpack_out *out, struct ual_findings *f,
                                                                bool bytes) {
  out->n_tl = out->n_msg = 0;
  out->tl_started = 0;
  out->partial_sectors = 0;
  out->tl_synced_at = out->msg_synced_at = -1;
  memset(out->alt_role, UAL_ALT_NONE, sizeof out->alt_role);

  for (int k = 0; k < UAL_SEGMENTS; k++) {
    struct ual_sh sh;
    ual_sh_decode_inline(v->sh[k], &sh);
    struct seg_cursor c = seg_open(k);
    if (sh.alt) {
      uint32_t dw = v->first_dw[k];
      if (u->msg_owed) unsynced_alt(u, dw, k, out);
      else unpack_alt(u, dw, k, frame, out, f);
      c.next++;
    } else if (u->msg_owed) {
      unsynced_gap(u, k, out);
    }
    if (u->tl_cands) {
      unsynced_tl(u, v, flit, &c, k, sh, frame, out, bytes); /* by value: sh stays in registers */
      continue;
    }
    if (u->tl_have) unpack_tl(u, flit, &c, out, bytes);
    /* An invalid code is DL-TLBEAT (flit decoder); its sectors are likely a
     * TL flit of unknown metadata, so they are not judged as zero fill too. */
    if (sh.tlbeat == UAL_TB_INVALID) continue;
    if (sh.tlbeat != UAL_TB_NONE) {
      if (c.next == c.end) {
        ual_findings_add(f, UAL_R_DL_TL_NO_ROOM, k, "SH%d TLBeat %s starts a TL flit but all %u sectors are taken",
                         k, ual_tlbeat_name((enum ual_tlbeat)sh.tlbeat), ual_segment_map[k].n_sectors);
      } else {
        u->m0 = sh.m0;
        u->m1 = sh.m1;
        u->tl_seg = (uint8_t)k;
        u->tl_frame = frame;
        out->tl_started++;
        unpack_tl(u, flit, &c, out, bytes);
      }
    }
    check_zero_fill(flit, v, &c, k, f);
  }
  out->tl_owed = (uint8_t)(u->tl_have ? UAL_TL_FLIT_SECTORS - u->tl_have : 0);
  out->uart_open = (int8_t)(u->uart_need ? u->uart_need : -1);
}

void ual_unpack_flit(struct ual_unpack *u, const uint8_t *flit, uint64_t frame, struct ual_unpack_out *out,
                     struct ual_findings *f) {
  struct ual_flit_view v;
  ual_flit_view(flit, &v);
  unpack_flit(u, &v, flit, frame, out, f, true);
}

void ual_unpack_flit_nobytes(struct ual_unpack *u, const uint8_t *flit, uint64_t frame, struct ual_unpack_out *out,
                             struct ual_findings *f) {
  struct ual_flit_view v;
  ual_flit_view(flit, &v);
  unpack_flit(u, &v, flit, frame, out, f, false);
}

void ual_unpack_flit_viewed(struct ual_unpack *u, const struct ual_flit_view *v, const uint8_t *flit, bool tl_bytes,
                            uint64_t frame, struct ual_unpack_out *out, struct ual_findings *f) {
  if (tl_bytes) unpack_flit(u, v, flit, frame, out, f, true);
  else unpack_flit(u, v, flit, frame, out, f, false);
}

/* ---- packer ---- */

void ual_pack_init(struct ual_pack *p) { memset(p, 0, sizeof *p); }

uint8_t *ual_pack_tl_slot(struct ual_pack *p) {
  return p->tl_count < TL_Q ? p->tlq[(p->tl_head + p->tl_count) % TL_Q] : NULL;
}

void ual_pack_push_tl_slot(struct ual_pack *p, unsigned m0, unsigned m1) {
  if (p->tl_count >= TL_Q) return;
  p->tlq_m[(p->tl_head + p->tl_count) % TL_Q] = (uint8_t)((m0 & 1) | (m1 & 1) << 1);
  p->tl_count++;
}

bool ual_pack_push_tl(struct ual_pack *p, const uint8_t data[UAL_TL_FLIT_BYTES], unsigned m0, unsigned m1) {
  uint8_t *slot = ual_pack_tl_slot(p);
  if (!slot) return false;
  memcpy(slot, data, UAL_TL_FLIT_BYTES);
  ual_pack_push_tl_slot(p, m0, m1);
  return true;
}

bool ual_pack_push_msg(struct ual_pack *p, const uint32_t *dw, unsigned n) {
  if (n == 0) return false;
  unsigned want = 1u + transport_payload(dw[0]);
  if (n != want || p->msg_count + n > MSG_Q) return false;
  for (unsigned i = 0; i < n; i++) p->msgq[(p->msg_head + p->msg_count + i) % MSG_Q] = dw[i];
  p->msg_count += n;
  return true;
}

unsigned ual_pack_tl_queued(const struct ual_pack *p) { return p->tl_count; }
unsigned ual_pack_msg_queued(const struct ual_pack *p) { return p->msg_count; }
bool ual_pack_busy(const struct ual_pack *p) { return p->tl_sent != 0; }

/* The next DWord of the message queue into the segment's first sector. Whole
 * messages are queued in order, so a transport's DWords go to successive
 * segments and later messages wait behind it. */
static void pack_alt(struct ual_pack *p, uint8_t *flit, struct seg_cursor *c) {
  uint32_t dw = p->msgq[p->msg_head];
  p->msg_head = (p->msg_head + 1) % MSG_Q;
  p->msg_count--;
  if (p->uart_left) p->uart_left--;
  else p->uart_left = (uint8_t)transport_payload(dw);
  ual_put_le32(flit + ual_sector_byte(c->next), dw);
  c->next++;
}

/* Sends what the segment takes of the TL flit at the queue head. */
static void pack_tl(struct ual_pack *p, uint8_t *flit, struct seg_cursor *c) {
  unsigned n = tl_run(c, p->tl_sent);
  memcpy(flit + ual_sector_byte(c->next), p->tlq[p->tl_head] + UAL_SECTOR_BYTES * p->tl_sent, UAL_SECTOR_BYTES * n);
  c->next += n;
  p->tl_sent = (uint8_t)(p->tl_sent + n);
  if (p->tl_sent < UAL_TL_FLIT_SECTORS) return;
  p->tl_sent = 0;
  p->tl_head = (p->tl_head + 1) % TL_Q;
  p->tl_count--;
}

void ual_pack_flit(struct ual_pack *p, const struct ual_fh *fh, bool tl_allowed, uint8_t *flit) {
  struct ual_fh h = *fh;
  h.usage = UAL_USAGE_PAYLOAD;
  /* Every byte is written once: header, segment headers, sectors (zero fill
   * where nothing is allocated), CRC and FEC; a memset of the whole flit
   * first costs more than the rest of the packing. */
  flit[0] = flit[1] = 0;
  ual_fh_encode(&h, flit);

  for (int k = 0; k < UAL_SEGMENTS; k++) {
    struct seg_cursor c = seg_open(k);
    bool alt = p->msg_count != 0 && !(p->alt_gap >> k & 1u), start = false;
    unsigned m = 0;
    if (alt) pack_alt(p, flit, &c);
    if (p->tl_sent) pack_tl(p, flit, &c);
    if (c.next < c.end && tl_allowed && p->tl_count) {
      start = true;
      m = p->tlq_m[p->tl_head];
      pack_tl(p, flit, &c);
    }
    flit[ual_segment_map[k].sh_byte] = ual_sh_encode(alt, start, m & 1, m >> 1);
    if (c.next < c.end) memset(flit + ual_sector_byte(c.next), 0, UAL_SECTOR_BYTES * (c.end - c.next));
  }
  p->alt_gap = 0;
  memset(flit + UAL_CRC_OFFSET, 0, UAL_FLIT_BYTES - UAL_CRC_OFFSET);
  ual_flit_seal(flit);
}
