/* libdecode: the UALink 128G DL/PL decoding and encoding core. */
#ifndef UALINK_UALINK_H
#define UALINK_UALINK_H

#include "rules.h"
#include "fields.h"
#include "crc.h"
#include "flit.h"
#include "dlmsg.h"
#include "pack.h"
#include "os.h"
#include "record.h"
#include "decode.h"
#include "tree.h"
#include "summary.h"

#define UAL_VERSION_STRING "0.1.0"

#endif
