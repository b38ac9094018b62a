/* The field table and its accessors (fields.h). */
#include "ualink/fields.h"
#include "ualink/dlmsg.h"

#define END { 0, NULL }

const struct ual_value_name ual_vals_rec_kind[] = { {1, "Flit"}, {2, "Ordered set"}, {3, "Link event"}, END };
const struct ual_value_name ual_vals_dir[] = { {0, "A>B"}, {1, "B>A"}, END };
const struct ual_value_name ual_vals_rate[] = {
  {0, "unknown"}, {1, "2.5 GT/s"}, {2, "32.0 GT/s"}, {3, "64.0 GT/s"},
  {4, "104 GT/s"}, {5, "112 GT/s"}, {6, "120 GT/s"}, {7, "128 GT/s"}, END };
const struct ual_value_name ual_vals_role[] = { {0, "unknown"}, {1, "accelerator"}, {2, "switch"}, END };
const struct ual_value_name ual_vals_fh_usage[] = { {0, "NOP/IDLE"}, {2, "Payload"}, END };
const struct ual_value_name ual_vals_prior[] = { {0, "NOP/IDLE"}, {1, "Payload"}, END };
const struct ual_value_name ual_vals_replay_cmd[] = {
  {0, "Explicit sequence number"}, {1, "Ack"}, {2, "Nak (replay all)"}, {3, "Nak (selective)"}, END };
const struct ual_value_name ual_vals_tlbeat[] = {
  {0x00, "No TL flit start"}, {0x0F, "TL flit (M0=0 M1=0)"}, {0x12, "TL flit (M1=1)"},
  {0x1B, "TL flit (M0=1)"}, {0x1E, "TL flit (M0=1 M1=1)"}, END };
const struct ual_value_name ual_vals_mclass[] = { {0x0, "Basic"}, {0x1, "UART"}, {0x8, "Control"}, END };
const struct ual_value_name ual_vals_ack[] = { {0, "Request"}, {1, "Response"}, END };
const struct ual_value_name ual_vals_dev_type[] = { {0, "Switch"}, {1, "Accelerator"}, END };
const struct ual_value_name ual_vals_valid[] = { {0, "Not valid"}, {1, "Valid"}, END };
const struct ual_value_name ual_vals_ctrl_cmd[] = {
  {0x4, "Request"}, {0x6, "Ack"}, {0x7, "Nack"}, {0x8, "Decision Pending"}, END };
const struct ual_value_name ual_vals_width[] = { {0, "x1"}, {1, "x2"}, {2, "x4"}, {3, "x8"}, END };
const struct ual_value_name ual_vals_speed[] = {
  {0, "2.5 GT/s"}, {1, "32.0 GT/s"}, {2, "64.0 GT/s"}, {3, "ESM"}, END };
const struct ual_value_name ual_vals_state[] = { {0, "L0"}, {1, "L1"}, END };
const struct ual_value_name ual_vals_channel[] = {
  {0x0, "ch0 (TL) offline"}, {0x4, "ch4 (UART) offline"},
  {0x8, "ch0 (TL) online"}, {0xC, "ch4 (UART) online"}, END };
const struct ual_value_name ual_vals_stream[] = { {0, "Stream 0"}, END };
const struct ual_value_name ual_vals_status[] = { {0, "Success"}, END };
const struct ual_value_name ual_vals_dllp_type[] = {
  {0x00, "NOP2"}, {0x20, "PM_Enter_L1"}, {0x21, "PM_Enter_L23"},
  {0x23, "PM_Active_State_Request_L1"}, {0x24, "PM_Request_Ack"}, {0x28, "Link Management"},
  {0x30, "Vendor Specific"}, {0x31, "NOP"}, END };
const struct ual_value_name ual_vals_lm_type[] = { {0x00, "L0p"}, END };
const struct ual_value_name ual_vals_lm_cmd[] = { {0x4, "Request"}, {0x6, "Ack"}, {0x7, "Nak"}, END };
const struct ual_value_name ual_vals_os_encoding[] = { {0, "8b/10b"}, {1, "128b/130b"}, {2, "1b/1b"}, END };
const struct ual_value_name ual_vals_mts_usage[] = {
  {0, "PCIe protocol only"}, {1, "Training Set Message"}, {2, "Alternate Protocol"}, END };
const struct ual_value_name ual_vals_event[] = {
  {1, "Electrical idle entered"}, {2, "Electrical idle exited"}, {3, "Receiver detected"},
  {4, "Data rate changed"}, {5, "Link width changed"}, {6, "Capture started"},
  {7, "Capture stopped"}, {8, "Records dropped"}, END };
const struct ual_value_name ual_vals_flit_kind[] = {
  {0, "Payload"}, {1, "NOP"}, {2, "IDLE"}, {3, "Reserved"}, END };
const struct ual_value_name ual_vals_msg_type[] = {
#define UAL_X_(e, mc, mt, json, disp, label, sc) { UAL_MT_##e, disp },
  UAL_MSG_TYPES(UAL_X_)
#undef UAL_X_
  { UAL_MT_RESERVED, "Reserved" }, END };
const struct ual_value_name ual_vals_fec_status[] = {
  {0, "Clean"}, {1, "Corrected"}, {2, "Uncorrectable"}, END };
const struct ual_value_name ual_vals_rec_width[] = { {0, "unknown"}, {1, "x1"}, {2, "x2"}, {4, "x4"}, {8, "x8"}, END };
const struct ual_value_name ual_vals_rec_link[] = { {255, "unknown"}, END };
const struct ual_value_name ual_vals_os_type[] = {
  {0, "TS1"}, {1, "TS2"}, {2, "EIOS"}, {3, "EIEOS"}, {4, "SKP"}, {5, "SDS"}, {6, "Unknown"}, END };

const struct ual_field ual_fields[UAL_F_COUNT] = { UAL_FIELDS(UAL_FIELD_ROW_) };

static uint64_t width_mask(unsigned width) {
  return width >= 64 ? ~0ULL : ((1ULL << width) - 1);
}

static uint64_t container_get(const struct ual_field *fd, const uint8_t *p) {
  uint64_t v = 0;
  for (unsigned i = 0; i < fd->size; i++) {
    unsigned shift = fd->endian == UAL_BE ? 8u * (fd->size - 1 - i) : 8u * i;
    v |= (uint64_t)p[i] << shift;
  }
  return v;
}

static void container_put(const struct ual_field *fd, uint8_t *p, uint64_t v) {
  for (unsigned i = 0; i < fd->size; i++) {
    unsigned shift = fd->endian == UAL_BE ? 8u * (fd->size - 1 - i) : 8u * i;
    p[i] = (uint8_t)(v >> shift);
  }
}

uint64_t ual_field_mask(enum ual_field_id id) {
  const struct ual_field *fd = &ual_fields[id];
  return width_mask(fd->width) << fd->lsb;
}

uint64_t ual_field_get(enum ual_field_id id, const uint8_t *base) {
  const struct ual_field *fd = &ual_fields[id];
  if (fd->size == 0) return 0;
  return (container_get(fd, base + fd->offset) >> fd->lsb) & width_mask(fd->width);
}

void ual_field_put(enum ual_field_id id, uint8_t *base, uint64_t v) {
  const struct ual_field *fd = &ual_fields[id];
  if (fd->size == 0) return;
  uint64_t m = ual_field_mask(id);
  uint64_t c = container_get(fd, base + fd->offset);
  c = (c & ~m) | ((v << fd->lsb) & m);
  container_put(fd, base + fd->offset, c);
}

const char *ual_value_name(const struct ual_value_name *vals, uint32_t v) {
  if (!vals) return NULL;
  for (; vals->name; vals++)
    if (vals->value == v) return vals->name;
  return NULL;
}

const char *ual_field_value_name(enum ual_field_id id, uint32_t v) {
  return ual_value_name(ual_fields[id].vals, v);
}

/* The table is ordered by scope (test_fields checks it): a scope is one run. */
static void scope_range(enum ual_scope sc, int *lo, int *hi) {
  int a = 0, b = UAL_F_COUNT;
  while (a < b) {
    int mid = (a + b) / 2;
    if (ual_fields[mid].scope < sc) a = mid + 1; else b = mid;
  }
  int e = a;
  while (e < UAL_F_COUNT && ual_fields[e].scope == sc) e++;
  *lo = a;
  *hi = e;
}

size_t ual_scope_fields(enum ual_scope sc, enum ual_field_id *ids, size_t cap) {
  int lo, hi;
  scope_range(sc, &lo, &hi);
  for (int i = lo; i < hi && (size_t)(i - lo) < cap; i++) ids[i - lo] = (enum ual_field_id)i;
  return (size_t)(hi - lo);
}

uint64_t ual_scope_reserved_mask(enum ual_scope sc) {
  int lo, hi;
  uint64_t m = 0;
  scope_range(sc, &lo, &hi);
  for (int i = lo; i < hi; i++)
    if (ual_fields[i].flags & UAL_FF_RESERVED) m |= ual_field_mask((enum ual_field_id)i);
  return m;
}

static bool scope_find(enum ual_scope sc, const uint8_t *base, bool reserved, enum ual_field_id *id, uint32_t *v) {
  int lo, hi;
  scope_range(sc, &lo, &hi);
  for (int i = lo; i < hi; i++) {
    const struct ual_field *fd = &ual_fields[i];
    if (!(fd->flags & (reserved ? UAL_FF_RESERVED : UAL_FF_ENUM)) || fd->size == 0) continue;
    uint32_t x = (uint32_t)ual_field_get((enum ual_field_id)i, base);
    if (reserved ? x != 0 : ual_value_name(fd->vals, x) == NULL) {
      *id = (enum ual_field_id)i;
      *v = x;
      return true;
    }
  }
  return false;
}

bool ual_scope_unlisted(enum ual_scope sc, const uint8_t *base, enum ual_field_id *id, uint32_t *v) {
  return scope_find(sc, base, false, id, v);
}

bool ual_scope_reserved_set(enum ual_scope sc, const uint8_t *base, enum ual_field_id *id, uint32_t *v) {
  return scope_find(sc, base, true, id, v);
}
