/* TUI screen model (model.h). Records go through libdecode's analyzer, so
 * the list shows stateful findings and the link-state screen its state. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool tui_model_init(struct tui_model *m, size_t cap) { return tui_model_init_caps(m, cap, cap); }

bool tui_model_init_caps(struct tui_model *m, size_t ring_cap, size_t match_cap) {
  memset(m, 0, sizeof *m);
  m->cap = ring_cap ? ring_cap : 1;
  m->match_cap = match_cap ? match_cap : 1;
  /* Pages of both rings are only touched as records arrive. */
  m->ring = calloc(m->cap, sizeof *m->ring);
  m->matches = calloc(m->match_cap, sizeof *m->matches);
  if (!m->ring || !m->matches) {
    tui_model_free(m);
    return false;
  }
  if (m->cap > 1 && !(m->tail = malloc(sizeof *m->tail))) {
    tui_model_free(m);
    return false;
  }
  if (!(m->vt = malloc(sizeof *m->vt))) {
    tui_model_free(m);
    return false;
  }
  ual_view_tally_init(m->vt);
  m->link.width_ns = 1;
  ual_analyzer_init(&m->an);
  if (m->tail) ual_analyzer_init(m->tail);
  ual_events_init(&m->ev);
  m->ev.delivered = ual_filter_ualink_delivered;
  m->ev.ctx = &m->fst;
  tui_filter_parse(&m->filter, "", NULL, 0);
  return true;
}

void tui_model_free(struct tui_model *m) {
  tui_filter_free(&m->filter);
  free(m->ring);
  free(m->matches);
  free(m->tail);
  free(m->vt);
  free(m->txns);
  m->ring = m->matches = NULL;
  m->tail = NULL;
  m->vt = NULL;
  m->txns = NULL;
  m->n_txns = m->txn_cap = 0;
}

size_t tui_model_count(const struct tui_model *m) {
  return m->total < m->cap ? (size_t)m->total : m->cap;
}

const struct tui_entry *tui_model_at(const struct tui_model *m, size_t i) {
  size_t n = tui_model_count(m);
  if (i >= n) return NULL;
  uint64_t abs = m->total - n + i;
  return &m->ring[abs % m->cap];
}

long tui_model_find_frame(const struct tui_model *m, uint64_t frame) {
  size_t n = tui_model_count(m);
  uint64_t first = m->total - n + 1;
  if (frame < first || frame > m->total) return -1;
  return (long)(frame - first);
}

static void rate_add(struct tui_rate *to, const struct tui_rate *d) {
  to->flits += d->flits;
  to->tl_flits += d->tl_flits;
  to->naks += d->naks;
  to->fec_corrected += d->fec_corrected;
}

static void link_rates_add(struct tui_link_rates *l, uint64_t since_t0, const struct tui_rate *d) {
  while (since_t0 / l->width_ns >= TUI_RATE_BUCKETS) {
    for (unsigned i = 0; i < TUI_RATE_BUCKETS / 2; i++) {
      l->b[i] = l->b[2 * i];
      rate_add(&l->b[i], &l->b[2 * i + 1]);
    }
    memset(&l->b[TUI_RATE_BUCKETS / 2], 0, sizeof l->b / 2);
    l->width_ns *= 2;
    l->used = (l->used + 1) / 2;
  }
  unsigned i = (unsigned)(since_t0 / l->width_ns);
  rate_add(&l->b[i], d);
  if (i + 1 > l->used) l->used = i + 1;
}

static void wall_rates_add(struct tui_wall_rates *w, uint64_t wall_ns, const struct tui_rate *d) {
  uint64_t s = wall_ns / 1000000000u;
  unsigned i = (unsigned)(s % TUI_RATE_BUCKETS);
  if (w->second[i] != s) {
    memset(&w->b[i], 0, sizeof w->b[i]);
    w->second[i] = s;
  }
  rate_add(&w->b[i], d);
}

static void count(struct tui_model *m, const struct ual_rec_result *r, uint64_t ts_ns, uint64_t wall_ns) {
  if (ts_ns > m->last_ts) m->last_ts = ts_ns;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    m->malformed++;
    return;
  }
  struct tui_dir_counts *c = &m->dir[r->dir];
  c->records++;
  m->last_rate = r->rec.h.rate;
  m->last_width = r->rec.h.width;
  if (r->rec.h.role_a || r->rec.h.role_b) m->roles_pcie = r->rec.h.roles_pcie;
  if (r->rec.h.role_a) m->role_a = r->rec.h.role_a;
  if (r->rec.h.role_b) m->role_b = r->rec.h.role_b;

  struct tui_rate d = {0};
  if (r->rec.h.kind == UAL_REC_FLIT) {
    const struct ual_flit_info *fi = &r->flit;
    c->flits[fi->kind & 3]++;
    d.flits = 1;
    if (fi->fec.status == UAL_FEC_CORRECTED) { c->fec_corrected++; d.fec_corrected = 1; }
    if (fi->fec.status == UAL_FEC_UNCORRECTABLE) c->fec_uncorrectable++;
    if (!fi->crc_ok) {
      if (fi->crc_inverted) c->crc_inverted++;
      else c->crc_bad++;
    }
    if (fi->valid && (fi->fh.replay_cmd == UAL_RC_NAK || fi->fh.replay_cmd == UAL_RC_NAK_SELECTIVE)) {
      c->naks++;
      d.naks = 1;
    }
    if (r->unpacked) {
      c->tl_flits += r->unp.n_tl;
      d.tl_flits = r->unp.n_tl;
      c->dl_msgs += r->unp.n_msg;
    }
  } else if (r->rec.h.kind == UAL_REC_PCIE_FLIT) {
    c->pcie_flits++;
    c->pcie_tlps += r->tlps.n + r->tlps.dropped;
    d.flits = 1;
  } else if (r->rec.h.kind == UAL_REC_UB_FLIT) {
    const struct ual_ub_flit *u = &r->ub;
    c->ub_flits++;
    if (ual_ub_bcrc_bad(u)) c->ub_bcrc_bad++;
    if (u->unit.kind == UAL_UB_UNIT_DLLDP) c->ub_dlldps++;
    else if (u->unit.kind == UAL_UB_UNIT_DLLCB) c->ub_dllcbs++;
    d.flits = 1;
  } else if (r->rec.h.kind == UAL_REC_OS) {
    if (!r->rec.h.roles_pcie) c->os++;   /* a PCIe link's are the model's (--stats counts them so) */
  } else if (r->rec.h.kind == UAL_REC_PCIE_DLLP || (r->rec.h.kind == UAL_REC_PCIE_NF && r->nf.dllp_decoded)) {
    c->pcie_dllps++;
    if (!r->pcie.crc_ok) c->pcie_crc_bad++;
  } else if (r->rec.h.kind == UAL_REC_EVENT) {
    c->events++;
  }
  rate_add(&m->sum, &d);
  if (!m->arrival_times) link_rates_add(&m->link, ts_ns > m->t0_ns ? ts_ns - m->t0_ns : 0, &d);
  if (wall_ns) wall_rates_add(&m->wall, wall_ns, &d);
}

int64_t tui_model_rel_ns(const struct tui_model *m, const struct tui_entry *e) {
  return (int64_t)(e->ts_ns - m->t0_ns);
}

uint64_t tui_model_span_ns(const struct tui_model *m) {
  return m->total && !m->arrival_times && m->last_ts > m->t0_ns ? m->last_ts - m->t0_ns : 0;
}

/* A held record as the analyzer saw it: an entry keeps TUI_REC_MAX bytes
 * at most, and a longer record is malformed whatever they are. */
static void decode_held(const struct tui_entry *e, struct ual_rec_result *r) {
  ual_decode_stateless(e->rec, e->len, e->frame, r);
  if (e->wire_len > e->len) {
    r->status = (enum ual_rec_status)e->status;
    ual_findings_clear(&r->findings);
  }
}

static bool reads_state(const struct tui_filter *f) { return f->active && ual_filter_uses_state(f->prog); }

/* ev for a step: its timeline events end transactions, and a filter that
 * reads the analysis sees what -Y's step collects */
static struct ual_events *step_events(struct tui_model *m, uint64_t frame) {
  ual_events_clear(&m->ev);
  ual_filter_ualink_begin(&m->fst, frame);
  return &m->ev;
}

/* ev for a step whose result the filter will see: what -Y's step collects */
static struct ual_events *filter_events(struct tui_model *m, uint64_t frame) {
  if (!reads_state(&m->filter)) return NULL;
  return step_events(m, frame);
}

/* The model's filter on e, decoded as r, with the analysis an after it. */
static bool filter_on(struct tui_model *m, const struct ual_analyzer *an, const struct tui_entry *e,
                      const struct ual_rec_result *r) {
  m->fst.an = an;
  m->fst.ev = &m->ev;
  struct ual_filter_record fr = { e->rec, e->len, e->wire_len, e->frame, e->rel_ns, e->delta_ns, r, &m->fst };
  ual_filter_collect(m->filter.prog, &fr);
  return ual_filter_match(m->filter.prog);
}

/* The transactions r (on link slot k) ended. */
static void keep_txns(struct tui_model *m, int k, const struct ual_rec_result *r, uint64_t ts_ns) {
  struct ual_view_txn t[UAL_VIEW_MAX_TXNS];
  unsigned n = ual_view_txns(m->vt, k, r, ts_ns, &m->ev, t, UAL_VIEW_MAX_TXNS);
  for (unsigned i = 0; i < n; i++) {
    if (m->n_txns == m->txn_cap) {
      size_t cap = m->txn_cap ? m->txn_cap * 2 : 256;
      struct ual_view_txn *v = cap <= TUI_TXN_MAX ? realloc(m->txns, cap * sizeof *v) : NULL;
      if (!v) {
        m->txns_dropped += n - i;
        return;
      }
      m->txns = v;
      m->txn_cap = cap;
    }
    m->txns[m->n_txns++] = t[i];
  }
}

void tui_model_view_src(const struct tui_model *m, struct ual_view_src *src) { ual_analyzer_view_src(&m->an, m->vt, src); }

bool tui_model_link_shown(const struct tui_model *m, unsigned k) {
  const struct ual_view_link_tally *l = &m->vt->l[k];
  for (unsigned d = 0; d < 2; d++)
    if (l->d[d].records > l->d[d].events) return true;
  return false;
}

bool tui_model_links(const struct tui_model *m) {
  unsigned n = 0;
  for (unsigned k = 0; k < m->vt->n; k++) n += tui_model_link_shown(m, k);
  return n > 1 || m->vt->other_links;
}

const struct tui_entry *tui_model_add(struct tui_model *m, const uint8_t *rec, size_t len, uint64_t ts_ns,
                                      uint64_t wall_ns) {
  struct tui_entry *e = &m->ring[m->total % m->cap];
  struct ual_rec_result *r = &m->res;
  if (m->tail && m->total >= m->cap) {  /* e leaves the ring: the tail analysis passes it */
    decode_held(e, r);
    ual_analyzer_step_decoded(m->tail, e->frame, m->arrival_times ? 0 : e->ts_ns, r, NULL);
  }
  uint8_t dir = len > 2 && (rec[2] & UAL_RF_DIR_B) ? 1 : 0;
  unsigned link = len >= UAL_REC_HDR_BYTES ? (unsigned)ual_field_get(UAL_F_REC_LINK, rec) : 255u;
  struct ual_pcie_walk before;
  ual_pcie_an_walk(&m->an.fab.pcie, link, dir, &before);
  bool pcie = len > 1 && rec[1] == UAL_REC_PCIE_FLIT;
  if (pcie) e->st.pcie.walk = before;
  else e->st.before = m->an.unpack[dir];
  if (!m->total) m->t0_ns = m->last_ts = m->prev_ts = ts_ns;
  e->rel_ns = (int64_t)(ts_ns - m->t0_ns);
  e->delta_ns = (int64_t)(ts_ns - m->prev_ts);
  m->prev_ts = ts_ns;
  m->total++;
  uint64_t link_ts = m->arrival_times ? 0 : ts_ns;
  ual_analyzer_step(&m->an, rec, len, m->total, link_ts, r, step_events(m, m->total));

  e->frame = m->total;
  e->ts_ns = ts_ns;
  e->len = (uint16_t)(len < TUI_REC_MAX ? len : TUI_REC_MAX);
  e->wire_len = (uint32_t)len;
  e->status = (uint8_t)r->status;
  memcpy(e->rec, rec, e->len);
  e->dir = r->dir;
  e->link = r->rec.h.link;
  keep_txns(m, ual_view_tally_add(m->vt, r, link_ts, true), r, link_ts);
  bool ok = r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
  e->kind = ok ? r->rec.h.kind : 0;
  e->flit_kind = ok && r->rec.h.kind == UAL_REC_FLIT ? r->flit.kind : 0;
  e->sev = r->findings.n ? (int8_t)ual_findings_max_severity(&r->findings) : -1;
  e->n_rules = 0;
  for (unsigned i = 0; i < r->findings.n; i++) {
    uint16_t rule = r->findings.v[i].rule;
    m->rule_counts[rule]++;
    if (!m->first_rule_frame[rule]) m->first_rule_frame[rule] = e->frame;
    if (e->n_rules < TUI_MAX_RULES) e->rules[e->n_rules++] = rule;
  }
  if (pcie) {
    struct ual_pcie_walk after;
    ual_pcie_an_walk(&m->an.fab.pcie, link, dir, &after);
    e->st.pcie.walked = after.flit != before.flit;
    for (unsigned i = 0; i < r->tlps.n; i++) {
      const struct ual_pcie_tlp_rec *x = &r->tlps.v[i];
      e->st.pcie.link[i] = (struct tui_tlp_link){ x->link, x->start_frame, x->peer_frame, x->latency_ns };
    }
  }
  e->msg_types = 0;
  if (r->unpacked)
    for (unsigned i = 0; i < r->unp.n_msg; i++) e->msg_types |= (uint16_t)(1u << r->unp.msg[i].msg.type);
  ual_rec_summary(r, e->line, sizeof e->line);
  count(m, r, ts_ns, wall_ns);
  e->match = m->filter.active && filter_on(m, &m->an, e, r);
  if (e->match) m->matches[m->n_matches++ % m->match_cap] = *e;
  return e;
}

struct rewalk {
  const struct tui_entry *e;
  struct ual_pcie_tlps *out;
};

static void rewalk_tlp(void *ctx, const struct ual_pcie_tlp *t) {
  struct rewalk *x = ctx;
  struct ual_pcie_tlp_rec *o = ual_pcie_tlps_add(x->out, t);
  if (!o) return;
  const struct tui_tlp_link *l = &x->e->st.pcie.link[o - x->out->v];
  o->link = l->link;
  o->start_frame = l->start_frame;
  o->peer_frame = l->peer_frame;
  o->latency_ns = l->latency_ns;
}

void tui_entry_decode(const struct tui_entry *e, struct ual_rec_result *r) {
  struct ual_decoder d;
  ual_decoder_init(&d);
  bool pcie = e->len > 1 && e->rec[1] == UAL_REC_PCIE_FLIT;
  if (!pcie) d.unpack[e->dir] = e->st.before;
  ual_decode_record(&d, e->rec, e->len, e->frame, r);
  if (pcie && e->st.pcie.walked && r->flit.valid) {
    /* the same walk from the same state finds the same TLPs; their links are the entry's */
    struct ual_pcie_walk w = e->st.pcie.walk;
    struct rewalk x = { e, &r->tlps };
    unsigned at = 0;
    if (ual_pcie_walk_flit(&w, r->flit.bytes, rewalk_tlp, &x, &at) == UAL_PW_SYNCED) r->tlps.synced_at = (int8_t)at;
  }
}

struct tui_rate tui_model_wall_rate(const struct tui_model *m, uint64_t now_s, unsigned ago) {
  struct tui_rate none = {0};
  if (ago >= TUI_RATE_BUCKETS || ago > now_s) return none;
  unsigned i = (unsigned)((now_s - ago) % TUI_RATE_BUCKETS);
  return m->wall.second[i] == now_s - ago ? m->wall.b[i] : none;
}

/* Filters */

bool tui_filter_compile(struct tui_filter *f, const char *text, struct ual_filter_error *err) {
  memset(f, 0, sizeof *f);
  snprintf(f->text, sizeof f->text, "%s", text);
  const char *p = text;
  while (*p == ' ' || *p == '\t') p++;
  if (!*p) return true;
  f->prog = ual_filter_compile(text, err);
  f->active = f->prog != NULL;
  return f->active;
}

bool tui_filter_parse(struct tui_filter *f, const char *text, char *err, size_t errcap) {
  struct ual_filter_error e;
  if (tui_filter_compile(f, text, &e)) return true;
  if (err && e.pos >= 0) snprintf(err, errcap, "%s (at column %d)", e.msg, e.pos + 1);
  else if (err) snprintf(err, errcap, "%s", e.msg);
  return false;
}

void tui_filter_free(struct tui_filter *f) {
  ual_filter_free(f->prog);
  f->prog = NULL;
  f->active = false;
}

/* Every held record again, from the analysis before the oldest one: the
 * filter sees each with the state it had when it arrived. */
void tui_model_set_filter(struct tui_model *m, const struct tui_filter *f) {
  struct ual_filter_error err;
  tui_filter_free(&m->filter);
  if (!tui_filter_compile(&m->filter, f->text, &err)) tui_filter_free(&m->filter);
  m->n_matches = 0;
  size_t n = tui_model_count(m);
  for (size_t i = 0; i < n; i++) m->ring[(m->total - n + i) % m->cap].match = false;
  if (!m->filter.active || !n || !m->tail) return;
  struct replay { struct ual_analyzer an; struct ual_rec_result r; } *rp = malloc(sizeof *rp);
  if (!rp) {
    tui_filter_free(&m->filter);  /* no answer rather than a wrong one */
    return;
  }
  rp->an = *m->tail;
  for (size_t i = 0; i < n; i++) {
    struct tui_entry *e = &m->ring[(m->total - n + i) % m->cap];
    decode_held(e, &rp->r);
    ual_analyzer_step_decoded(&rp->an, e->frame, m->arrival_times ? 0 : e->ts_ns, &rp->r, filter_events(m, e->frame));
    e->match = filter_on(m, &rp->an, e, &rp->r);
    if (e->match) m->matches[m->n_matches++ % m->match_cap] = *e;
  }
  free(rp);
}

void tui_model_take_older_matches(struct tui_model *m, struct tui_model *scan) {
  size_t n = tui_view_count(m, true);
  uint64_t first_held = m->total - tui_model_count(m) + 1;
  /* scan's ring holds the older matches, oldest first; m's follow them */
  struct tui_entry *older = scan->matches;
  size_t n_older = tui_view_count(scan, true);
  uint64_t start = scan->n_matches - n_older;
  while (n_older && older[(start + n_older - 1) % scan->match_cap].frame >= first_held) n_older--;
  struct tui_entry *v = calloc(m->match_cap, sizeof *v);
  if (!v) return; /* the matches held stay */
  uint64_t k = 0;
  for (size_t i = 0; i < n_older; i++) v[k++ % m->match_cap] = older[(start + i) % scan->match_cap];
  for (size_t i = 0; i < n; i++) v[k++ % m->match_cap] = *tui_view_at(m, true, i);
  free(m->matches);
  m->matches = v;
  m->n_matches = k;
}

size_t tui_view_count(const struct tui_model *m, bool only) {
  if (!only) return tui_model_count(m);
  return m->n_matches < m->match_cap ? (size_t)m->n_matches : m->match_cap;
}

const struct tui_entry *tui_view_at(const struct tui_model *m, bool only, size_t i) {
  if (!only) return tui_model_at(m, i);
  size_t n = tui_view_count(m, true);
  if (i >= n) return NULL;
  return &m->matches[(m->n_matches - n + i) % m->match_cap];
}

size_t tui_view_find(const struct tui_model *m, bool only, uint64_t frame) {
  size_t lo = 0, hi = tui_view_count(m, only); /* frames rise along a view */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (tui_view_at(m, only, mid)->frame <= frame) lo = mid + 1;
    else hi = mid;
  }
  return lo ? lo - 1 : 0;
}

long tui_model_next_match(const struct tui_model *m, long i, int step) {
  long n = (long)tui_model_count(m);
  for (long j = i + step; j >= 0 && j < n; j += step)
    if (!m->filter.active || tui_model_at(m, (size_t)j)->match) return j;
  return -1;
}
