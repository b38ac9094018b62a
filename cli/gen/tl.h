/* TL traffic of ualink-gen: TL flits into the side's packer. Uses the link model. */
#ifndef UALGEN_TL_H
#define UALGEN_TL_H

#include "model.h"

/* TL flits per flit time at full load: the slower of the two sides' TL
 * rates at the side's rate and width */
double tl_pace(const struct side *s);
/* one TL flit into the packer (tl_packed output, statistics) */
void tl_make(struct gen *g, struct side *s);
/* tops up the packer's TL queue before a payload flit */
void tl_feed(struct gen *g, struct side *s);

#endif
