/* --stats: the presentation model's counters (core/views.h), per link, as
 * text or as the JSON summary; and the totals over every link the report
 * and the JSON summary's top level read. */
#ifndef UAL_DC_STATS_H
#define UAL_DC_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "ualink/ualink.h"
#include "ualink/core/views.h"
#include "outbuf.h"

/* The tallies of every link summed: per direction the generic counts, and
 * each fabric's tally over its links (has: a link of the fabric came). */
struct dc_sums {
  struct ual_view_dir_tally d[2];
#define UAL_X_(m) struct ual_##m##_tally m;
  UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_
  bool has[UAL_VF_COUNT];
  uint64_t first_ts, last_ts;   /* over both directions, 0 none */
};
void dc_sums_of(const struct ual_view_tally *t, struct dc_sums *s);

/* A fabric's own parts of the JSON summary's top level (fab_*.c), the
 * layout of docs/json.md: keys of a direction's object under "dirs", and
 * objects of the summary itself. Either may be NULL. */
struct dc_fab {
  /* its record kinds' counts after "malformed" (dir 2: both summed, in "by_kind") */
  void (*kinds_json)(struct dc_out *o, bool *first, const struct dc_sums *s, unsigned dir);
  void (*dir_json)(struct dc_out *o, bool *first, const struct dc_sums *s, unsigned dir, uint64_t span_ns);
  void (*top_json)(struct dc_out *o, bool *first, const struct dc_sums *s, const struct ual_view_src *src);
};
#define UAL_X_(m) extern const struct dc_fab dc_fab_##m;
UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_

/* src with the links to render in *out: src's tally, or with no link at
 * all one empty link of the top level's fabric in *empty (an empty capture
 * still has its tables). */
const struct ual_view_tally *dc_stats_links(const struct ual_view_src *src, struct ual_view_src *out,
                                            struct ual_view_tally *empty);
/* The links of src->tally (with none, an empty UALink link), each named,
 * its counters in the text tables, its time span, its analysis' totals
 * by sender and its state line. */
void dc_stats_text(struct dc_out *o, const char *input, const struct ual_view_src *src, bool link_headings);
/* The JSON summary: the totals over every link as docs/json.md lays them
 * out, then "links": each link's counters, totals by sender and state rows. */
void dc_stats_json(struct dc_out *o, const struct ual_view_src *src);

#endif
