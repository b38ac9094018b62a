/* Link-event records (kind 3): common to every fabric, decoded by core. */
#include "kind.h"

static bool event_body_ok(size_t len) { return len == UAL_REC_EVENT_BYTES; }

static void event_decode(struct ual_rec_result *r) { ual_event_parse(r->rec.body, r->rec.body_len, &r->ev); }

static const char *event_text(const struct ual_rec_result *r) {
  const char *n = ual_event_name(r->ev.code);
  return n ? n : "unknown";
}

static const struct ual_fixed_row event_rows[] = { UAL_FIXED_SCOPE(UAL_SC_EVENT, UAL_REC_HDR_BYTES) };
static const struct ual_fixed_rows event_body = UAL_FIXED_ROWS(event_rows);
static const struct ual_fixed_rows *const event_fixed[] = { &event_body, NULL };

static void event_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  ual_tb_group(w, 0, "Link event", UAL_REC_HDR_BYTES, UAL_REC_EVENT_BYTES, "%s", event_text(r));
  ual_tb_fixed(w, 1, &event_body);
}

static void event_summary(struct ual_text *o, const struct ual_rec_result *r) {
  ual_text_put(o, "event %s value %u", event_text(r), r->ev.value);
}

const struct ual_kind ual_kind_event = {
  "link event", "event", event_body_ok, event_decode, NULL, event_tree, event_summary, NULL, NULL, event_fixed, UAL_SC_REC, NULL,
};
