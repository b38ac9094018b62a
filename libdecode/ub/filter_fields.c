/* UB's display-filter hook (ub/filter.h): the "ub" protocol item over the
 * body of a UB flit record, where the Wireshark plugin adds it
 * (packet-ualink.c). */
#include "ualink/ub/filter.h"
#include "ualink/core/record.h"

const struct ual_filter_field ual_filter_ub_fields[UAL_FUB_COUNT] = {
  { "UnifiedBus data link", "ub", UAL_FT_PROTOCOL, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
};

bool ual_ub_kind(unsigned kind) { return kind == UAL_REC_UB_FLIT; }

static void collect(struct ual_fview *v, const struct ual_filter_record *fr) {
  const struct ual_rec_result *r = fr->r;
  if ((r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) || !ual_ub_kind(r->rec.h.kind)) return;
  int s = ual_fview_want(v, &ual_filter_ub, UAL_FUB_PROTO);
  if (s >= 0) ual_fview_add_body_protocol(v, s, fr);
}

const struct ual_filter_fabric ual_filter_ub = { ual_filter_ub_fields, UAL_FUB_COUNT, collect, NULL };
