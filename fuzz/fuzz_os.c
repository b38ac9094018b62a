/* Ordered-set record bodies. */
#include "ualink/ualink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct ual_os os;
  struct ual_findings f;
  ual_findings_clear(&f);
  if (ual_os_decode(data, size, &os) == 0) ual_os_check(&os, &f);
  return 0;
}
