/* libdecode: the protocol-neutral core (capture records, field and rule
 * tables, dispatch by record kind, field tree, summaries, CRC-64/FEC) and
 * the UALink 128G DL/PL decoding and encoding beside it. The analyzer is
 * in ualink/ualink/analysis.h. */
#ifndef UALINK_UALINK_H
#define UALINK_UALINK_H

#include "ualink/core/rules.h"
#include "ualink/core/fields.h"
#include "ualink/core/crc.h"
#include "ualink/ualink/flit.h"
#include "ualink/ualink/dlmsg.h"
#include "ualink/ualink/pack.h"
#include "ualink/ualink/os.h"
#include "ualink/core/record.h"
#include "ualink/core/decode.h"
#include "ualink/core/tree.h"
#include "ualink/core/summary.h"
#include "ualink/core/analysis.h"
#include "ualink/pcie/dllp.h"
#include "ualink/pcie/analysis.h"

#define UAL_VERSION_STRING "0.1.0"

#endif
