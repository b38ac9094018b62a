/* Entry points the Wireshark 4.x plugin loader looks for. The loader only
 * accepts a plugin built for its own major.minor version. */
#include <wireshark.h>
#include <epan/proto.h>
#include <epan/tap.h>

#include "packet-ualink.h"

WS_DLL_PUBLIC_DEF const gchar plugin_version[] = "0.1.0";
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

#if UAL_WS_AT_LEAST(4, 2)
#include <wsutil/plugins.h>
/* 4.2+ lists what a plugin provides (tshark -G plugins, About). */
WS_DLL_PUBLIC uint32_t plugin_describe(void);
uint32_t plugin_describe(void) { return WS_PLUGIN_DESC_DISSECTOR | WS_PLUGIN_DESC_TAP_LISTENER; }
#endif

void plugin_register(void) {
  static const proto_plugin proto = { proto_register_ualink, proto_reg_handoff_ualink };
  static const tap_plugin tap = { ual_ws_register_stats };
  proto_register_plugin(&proto);
  tap_register_plugin(&tap);
}
