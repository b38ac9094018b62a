/* UALink's display-filter hook (ualink/filter.h): its own filter fields
 * and their occurrences in a record, exactly where the Wireshark plugin
 * adds them (packet-ualink.c, ualink-state.c): sectors of payload
 * segments, completed TL flits and DL messages (the record's own, then
 * those a replay released), the analysis subtree, the findings. */
#include "ualink/ualink/filter.h"
#include "ualink/ualink/dlmsg.h"
#include "ualink/ualink/ltssm.h"
#include "ualink/ualink/timeline.h"

#include <string.h>

const struct ual_value_name ual_vals_lt_state[] = {
#define UAL_X_(e, n) { UAL_LT_##e, n },
  UAL_LT_STATES(UAL_X_)
#undef UAL_X_
  { 0, NULL },
};

const struct ual_value_name ual_vals_tev_kind[] = {
#define UAL_X_(e, n) { UAL_TEV_##e, n },
  UAL_TEV_KINDS(UAL_X_)
#undef UAL_X_
  { 0, NULL },
};

const struct ual_value_name ual_vals_neg_outcome[] = {
#define UAL_X_(e, n) { UAL_NEG_##e, n },
  UAL_NEG_OUTCOMES(UAL_X_)
#undef UAL_X_
  { 0, NULL },
};

const struct ual_filter_field ual_filter_ualink_fields[UAL_FU_COUNT] = {
  { "UALink 128G DL/PL", "ualink", UAL_FT_PROTOCOL, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
#define UAL_X_(id, name, abbrev, type, bytes, base, vals, blurb) { name, abbrev, type, bytes, base, 0, vals, blurb, NULL },
  UAL_FILTER_UALINK_FIELDS(UAL_X_)
#undef UAL_X_
#define UAL_X_(e, id, sev, what) { id ": " what, "ualink.rule." id, UAL_FT_NONE, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
  UAL_RULES(UAL_X_)
#undef UAL_X_
#define UAL_X_(id, name, abbrev) { name, abbrev, UAL_FT_NONE, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
  UAL_FILTER_UALINK_EXPERT(UAL_X_)
#undef UAL_X_
};

void ual_filter_ualink_begin(struct ual_filter_ualink *s, uint64_t frame) {
  s->frame = frame;
  s->n_tl = s->n_msg = 0;
}

void ual_filter_ualink_delivered(void *ctx, unsigned dir, uint64_t flit_frame, const struct ual_unpack_out *u) {
  struct ual_filter_ualink *s = ctx;
  (void)dir;
  if (flit_frame == s->frame) return;   /* the record's own flit: in r->unp */
  for (unsigned i = 0; i < u->n_tl && s->n_tl < UAL_FILTER_MAX_RELEASED; i++) s->tl[s->n_tl++] = u->tl[i];
  for (unsigned i = 0; i < u->n_msg && s->n_msg < UAL_FILTER_MAX_RELEASED; i++) s->msg[s->n_msg++] = u->msg[i];
}

extern const struct ual_filter_fabric ual_filter_ualink;

bool ual_filter_ualink_tl_bytes(const struct ual_filter *f) {
  const char *a = ual_filter_ualink_fields[UAL_FU_TL_DATA].abbrev;
  return ual_filter_uses(f, ual_filter_field_lookup(a, strlen(a)));
}

static int want(const struct ual_fview *v, enum ual_fu i) { return ual_fview_want(v, &ual_filter_ualink, i); }

static bool decoded(const struct ual_rec_result *r) {
  return r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
}

/* Wire fields are shown as the flit is after FEC correction. */
static const uint8_t *tree_bytes(struct ual_fview *v, const struct ual_filter_record *fr) {
  const struct ual_rec_result *r = fr->r;
  bool flit = r->rec.h.kind == UAL_REC_FLIT || r->rec.h.kind == UAL_REC_PCIE_FLIT;   /* PCIe flits: pcie/flit.h */
  if (!decoded(r) || !flit || r->flit.fec.status != UAL_FEC_CORRECTED) return NULL;
  uint8_t *b = (uint8_t *)ual_fview_text(v, fr->len);
  if (!b) return NULL;
  memcpy(b, fr->rec, fr->len);
  memcpy(b + UAL_REC_HDR_BYTES, r->flit.bytes, UAL_FLIT_BYTES);
  return b;
}

static void completed(struct ual_fview *v, unsigned n_tl, const struct ual_tl_flit *tls, unsigned n_msg,
                      const struct ual_dl_item *msgs) {
  int s;
  for (unsigned i = 0; i < n_tl; i++) {
    const struct ual_tl_flit *tl = &tls[i];
    if ((s = want(v, UAL_FU_TL_DATA)) >= 0) ual_fview_add_bytes(v, s, tl->data, UAL_TL_FLIT_BYTES);
    if ((s = want(v, UAL_FU_TL_M0)) >= 0) ual_fview_add_uint(v, s, tl->m0);
    if ((s = want(v, UAL_FU_TL_M1)) >= 0) ual_fview_add_uint(v, s, tl->m1);
    if ((s = want(v, UAL_FU_TL_START_FRAME)) >= 0) ual_fview_add_uint(v, s, (uint32_t)tl->start_frame);
    if ((s = want(v, UAL_FU_TL_START_SEGMENT)) >= 0) ual_fview_add_uint(v, s, tl->start_segment);
  }
  for (unsigned i = 0; i < n_msg; i++) {
    const struct ual_dl_item *it = &msgs[i];
    if ((s = want(v, UAL_FU_DLM_SUMMARY)) >= 0) {
      char *t = ual_fview_text(v, 128);
      if (t) {
        ual_dlmsg_summary(&it->msg, t, 128);
        ual_fview_add_text(v, s, t, strlen(t));
      }
    }
    if ((s = want(v, UAL_FU_DLM_START_FRAME)) >= 0) ual_fview_add_uint(v, s, (uint32_t)it->start_frame);
    if ((s = want(v, UAL_FU_DLM_SEGMENT)) >= 0) ual_fview_add_uint(v, s, it->segment);
    if ((s = want(v, UAL_FU_DLM_PAYLOAD)) >= 0)
      for (unsigned k = 0; k < it->n_payload; k++) ual_fview_add_uint(v, s, it->payload[k]);
  }
}

static bool wants_any(const struct ual_fview *v, enum ual_fu lo, enum ual_fu hi) {
  return ual_fview_want_any(v, &ual_filter_ualink, lo, hi);
}

/* The "Analysis" subtree: the sender's state after the record. */
static void analysis(struct ual_fview *v, const struct ual_filter_record *fr, const struct ual_filter_ualink *st) {
  const struct ual_rec_result *r = fr->r;
  int s;
  if (wants_any(v, UAL_FU_LTSSM, UAL_FU_UNACKED)) {
    struct ual_analysis_summary sum;
    ual_analyzer_summary(st->an, &sum);
    unsigned d = r->dir, p = d ^ 1;
    if ((s = want(v, UAL_FU_LTSSM)) >= 0) ual_fview_add_uint(v, s, sum.ltssm[d]);
    if ((s = want(v, UAL_FU_LTSSM_PEER)) >= 0) ual_fview_add_uint(v, s, sum.ltssm[p]);
    if ((s = want(v, UAL_FU_ROLE)) >= 0) ual_fview_add_uint(v, s, sum.role[d]);
    if ((s = want(v, UAL_FU_CH0)) >= 0 && sum.ch0[d] != UAL_UNKNOWN) ual_fview_add_uint(v, s, sum.ch0[d] == 1);
    if ((s = want(v, UAL_FU_CH4)) >= 0 && sum.ch4[d] != UAL_UNKNOWN) ual_fview_add_uint(v, s, sum.ch4[d] == 1);
    if ((s = want(v, UAL_FU_NEG_WIDTH)) >= 0 && sum.neg_width[d] != UAL_UNKNOWN)
      ual_fview_add_uint(v, s, (uint8_t)sum.neg_width[d]);
    if ((s = want(v, UAL_FU_NEG_SPEED)) >= 0 && sum.neg_speed[d] != UAL_UNKNOWN)
      ual_fview_add_uint(v, s, (uint8_t)sum.neg_speed[d]);
    if ((s = want(v, UAL_FU_NEG_STATE)) >= 0 && sum.neg_state[d] != UAL_UNKNOWN)
      ual_fview_add_uint(v, s, (uint8_t)sum.neg_state[d]);
    if ((s = want(v, UAL_FU_TL_RATE)) >= 0 && sum.tl_rate[d] != UAL_UNKNOWN)
      ual_fview_add_uint(v, s, (uint32_t)sum.tl_rate[d]);
    if ((s = want(v, UAL_FU_UNACKED)) >= 0 && sum.unacked[d] != UAL_UNKNOWN)
      ual_fview_add_uint(v, s, (uint16_t)sum.unacked[d]);
  }
  if ((s = want(v, UAL_FU_DUPLICATE)) >= 0 && r->rec.h.kind == UAL_REC_FLIT && r->flit.kind == UAL_FK_PAYLOAD)
    ual_fview_add_uint(v, s, ual_findings_has(&r->findings, UAL_R_RP_DUPLICATE) != 0);
  if (!st->ev || !wants_any(v, UAL_FU_TEV_KIND, UAL_FU_NEG_LATENCY)) return;
  for (unsigned i = 0; i < st->ev->n; i++) {
    const struct ual_tevent *e = &st->ev->v[i];
    if ((s = want(v, UAL_FU_TEV_KIND)) >= 0) ual_fview_add_uint(v, s, e->kind);
    if ((s = want(v, UAL_FU_TEV_TEXT)) >= 0) ual_fview_add_text(v, s, e->text, strnlen(e->text, sizeof e->text));
    if ((s = want(v, UAL_FU_TEV_VALUE)) >= 0 && e->value != UAL_UNKNOWN) ual_fview_add_uint(v, s, (uint64_t)(int64_t)e->value);
    if (e->kind != UAL_TEV_NEGOTIATION) continue;
    if ((s = want(v, UAL_FU_NEG_MTYPE)) >= 0) ual_fview_add_uint(v, s, e->mtype);
    if ((s = want(v, UAL_FU_NEG_OUTCOME)) >= 0) ual_fview_add_uint(v, s, e->outcome);
    if ((s = want(v, UAL_FU_NEG_LATENCY)) >= 0 && e->latency_ns) ual_fview_add_uint(v, s, e->latency_ns);
  }
}

/* The UDP export's header (core/udp.h) as the plugin's ualink.udp subtree
 * shows it. */
static void udp(struct ual_fview *v, const struct ual_filter_ualink *st) {
  const uint8_t *h = st->udp_hdr;
  int s;
  if ((s = want(v, UAL_FU_UDP)) >= 0) ual_fview_add_bytes(v, s, h, st->udp_hlen);
  if ((s = want(v, UAL_FU_UDP_TYPE)) >= 0) ual_fview_add_uint(v, s, h[0]);
  if ((s = want(v, UAL_FU_UDP_LEN)) >= 0) ual_fview_add_uint(v, s, h[1]);
  if ((s = want(v, UAL_FU_UDP_SEQ)) >= 0) ual_fview_add_uint(v, s, (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24);
  if (!st->udp_lost && !st->lost_mark) return;
  if ((s = want(v, UAL_FU_UDP_LOST)) >= 0) ual_fview_add_uint(v, s, st->udp_lost);
  if ((s = want(v, UAL_FU_UDP_LOST_BEFORE)) >= 0) ual_fview_add_uint(v, s, 0);
}

static void findings(struct ual_fview *v, const struct ual_rec_result *r) {
  int s;
  for (unsigned i = 0; i < r->findings.n; i++) {
    const struct ual_finding *f = &r->findings.v[i];
    if (f->rule >= UAL_R_COUNT) continue;
    if ((s = want(v, (enum ual_fu)(UAL_FU_RULE_FIRST + f->rule))) >= 0) ual_fview_add_uint(v, s, 0);
    if ((s = want(v, UAL_FU_RULE)) >= 0) {
      const char *id = ual_rule_id((enum ual_rule)f->rule);
      ual_fview_add_text(v, s, id, strlen(id));
    }
    if ((s = want(v, UAL_FU_SEVERITY)) >= 0) {
      const char *sev = ual_severity_name(ual_rule_severity((enum ual_rule)f->rule));
      ual_fview_add_text(v, s, sev, strlen(sev));
    }
  }
  if (r->findings.dropped && (s = want(v, UAL_FU_DROPPED)) >= 0) ual_fview_add_uint(v, s, 0);
  if (!decoded(r) && (s = want(v, UAL_FU_MALFORMED)) >= 0) ual_fview_add_uint(v, s, 0);
  else if (r->status == UAL_RS_RESERVED && (s = want(v, UAL_FU_HDR_RESERVED)) >= 0) ual_fview_add_uint(v, s, 0);
}

static void collect(struct ual_fview *v, const struct ual_filter_record *fr) {
  const struct ual_rec_result *r = fr->r;
  const struct ual_filter_ualink *st = fr->state;
  int s;
  if ((s = want(v, UAL_FU_PROTO)) >= 0) ual_fview_add_bytes(v, s, fr->rec, fr->len);
  if (wants_any(v, UAL_FU_SECTOR, UAL_FU_SECTOR) && (s = want(v, UAL_FU_SECTOR)) >= 0 && fr->len >= UAL_REC_HDR_BYTES && decoded(r) &&
      r->rec.h.kind == UAL_REC_FLIT && r->flit.kind == UAL_FK_PAYLOAD) {
    const uint8_t *b = r->flit.bytes;   /* as corrected */
    for (int k = 0; k < UAL_SEGMENTS; k++) {
      const struct ual_segment_def *sd = &ual_segment_map[k];
      for (unsigned x = sd->first_sector; x < sd->first_sector + sd->n_sectors; x++)
        ual_fview_add_bytes(v, s, b + ual_sector_offset(x), UAL_SECTOR_BYTES);
    }
  }
  bool reassembly = wants_any(v, UAL_FU_TL_DATA, UAL_FU_DLM_PAYLOAD);
  if (reassembly && r->unpacked) completed(v, r->unp.n_tl, r->unp.tl, r->unp.n_msg, r->unp.msg);
  if (st && st->udp_hdr) udp(v, st);
  if (st && st->an && decoded(r) && wants_any(v, UAL_FU_LTSSM, UAL_FU_NEG_LATENCY)) analysis(v, fr, st);
  if (reassembly && st && (st->n_tl || st->n_msg)) completed(v, st->n_tl, st->tl, st->n_msg, st->msg);
  if (r->findings.n || r->status != UAL_RS_OK) findings(v, r);
}

const struct ual_filter_fabric ual_filter_ualink = {
  ual_filter_ualink_fields, UAL_FU_COUNT, collect, tree_bytes,
};
