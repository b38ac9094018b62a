/* One flit as received (before FEC), and its DWords as DL messages. */
#include "ualink/ualink.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t raw[UAL_FLIT_BYTES] = {0};
  memcpy(raw, data, size < sizeof raw ? size : sizeof raw);
  struct ual_flit_info fi;
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_flit_decode(raw, &fi, &f);
  for (size_t i = 0; i + 4 <= sizeof raw; i += 4) {
    uint32_t dw = (uint32_t)raw[i] | (uint32_t)raw[i + 1] << 8 | (uint32_t)raw[i + 2] << 16 |
                  (uint32_t)raw[i + 3] << 24;
    struct ual_dlmsg m;
    char buf[128];
    ual_dlmsg_decode(dw, &m);
    ual_dlmsg_check(&m, 0, &f);
    ual_dlmsg_summary(&m, buf, sizeof buf);
    ual_findings_clear(&f);
  }
  return 0;
}
