/* The UALink rows of the field table: flit header, CRC and FEC, segment
 * header, DL messages, DLLPs, ordered sets, Vendor Defined Packets and the
 * values the decoder derives. Pure X-macro lists with no includes, expanded
 * by core/fields.h (which has the table machinery and the bit-range
 * convention) through the registration in core/fabrics.h.
 *
 * Little-endian is digest D1; the flit header is a big-endian 16-bit
 * container (FH0 = bits 15:8) so that seq = {FH0[1:0], FH1}. */
#ifndef UALINK_UALINK_FIELDS_H
#define UALINK_UALINK_FIELDS_H

/* Scopes, X(enum suffix of UAL_SC_): where a scope's base is. The table is
 * ordered by scope, so the rows below follow this order. */
#define UAL_UALINK_SCOPES(X) \
  X(FH)                 /* flit byte 0 */ \
  X(FLIT)               /* flit byte 0: CRC and FEC bytes */ \
  X(SH)                 /* the segment header byte */ \
  X(MSG)                /* a DL message DWord: fields common to all types */ \
  X(MSG_NOOP) \
  X(MSG_TL_RATE) \
  X(MSG_DEVICE_ID) \
  X(MSG_PORT_NUMBER) \
  X(MSG_LINK_WIDTH) \
  X(MSG_LINK_SPEED) \
  X(MSG_LINK_STATE) \
  X(MSG_CHANNEL) \
  X(MSG_UART_TRANSPORT) \
  X(MSG_UART_CREDIT) \
  X(MSG_UART_RESET_REQ) \
  X(MSG_UART_RESET_RSP) \
  X(OS)                 /* ordered-set record body */ \
  X(TS)                 /* TS1/TS2 symbol 0 */ \
  X(TS_EQ)              /* TS1 symbol 0 at 128b/130b and 1b/1b: equalization fields */ \
  X(MTS)                /* Modified TS1/TS2 symbol 0 */ \
  X(VDP)                /* Vendor Defined Packet TL DWord in the UART stream */ \
  X(GEN)                /* generated values (no wire location, size 0) */

/* Value-name lists ual_vals_<name>, defined in ualink/values.c. */
#define UAL_UALINK_VALUE_LISTS(X) \
  X(fh_usage) X(prior) X(replay_cmd) X(tlbeat) X(mclass) X(ack) X(dev_type) X(valid) \
  X(ctrl_cmd) X(width) X(speed) X(state) X(channel) X(stream) X(status) \
  X(os_encoding) X(mts_usage) X(flit_kind) X(msg_type) X(fec_status) \
  X(os_type) X(ts_speeds) X(ts_number)

/* Link width, speed and state share one layout (§2.4.3). */
#define UAL_CTRL_FIELDS_(X, P, SC, TV, PFX, SEC) \
  X(P##_RSVD9,  SC, "Reserved",    PFX ".rsvd9",    0, 4, UAL_LE,  9, 6, UAL_FF_RESERVED, NULL, SEC) \
  X(P##_PRIO,   SC, "Priority",    PFX ".priority", 0, 4, UAL_LE, 15, 1, UAL_FF_BOOL, NULL, SEC) \
  X(P##_TARGET, SC, "TargetState", PFX ".target",   0, 4, UAL_LE, 16, 4, UAL_FF_ENUM, UAL_V_(TV), SEC) \
  X(P##_CMD,    SC, "Command",     PFX ".command",  0, 4, UAL_LE, 20, 4, UAL_FF_ENUM, UAL_V_(ctrl_cmd), SEC) \
  X(P##_RESP,   SC, "Response",    PFX ".response", 0, 4, UAL_LE, 24, 4, UAL_FF_ENUM, UAL_V_(TV), SEC) \
  X(P##_RSVD28, SC, "Reserved",    PFX ".rsvd28",   0, 4, UAL_LE, 28, 4, UAL_FF_RESERVED, NULL, SEC)

/* X(ID, scope, "Name", "filter suffix after ualink.", offset, size, endian,
 *   lsb, width, flags, value list or NULL, "spec section") */
#define UAL_UALINK_FIELDS(X) \
  X(FH_USAGE_LO,  UAL_SC_FH,  "Flit Usage[1:0]","fh.usage_lo",   0, 2, UAL_BE, 14, 2, 0, NULL, "Table 3-1") \
  X(FH_PRIOR,     UAL_SC_FH,  "Prior Flit Type","fh.prior",      0, 2, UAL_BE, 13, 1, 0, UAL_V_(prior), "Table 3-1") \
  X(FH_USAGE_HI,  UAL_SC_FH,  "Flit Usage[2]",  "fh.usage_hi",   0, 2, UAL_BE, 12, 1, 0, NULL, "Table 3-1") \
  X(FH_REPLAY_CMD,UAL_SC_FH,  "Replay Command", "fh.replay_cmd", 0, 2, UAL_BE, 10, 2, 0, UAL_V_(replay_cmd), "Table 3-1") \
  X(FH_SEQ,       UAL_SC_FH,  "Flit Sequence Number","fh.seq",   0, 2, UAL_BE, 0, 10, 0, NULL, "Table 3-1") \
  X(FLIT_CRC,     UAL_SC_FLIT,"CRC-64",         "flit.crc",    242, 8, UAL_LE, 0, 64, UAL_FF_HEX, NULL, "3.4.6") \
  X(FLIT_FEC,     UAL_SC_FLIT,"FEC check/parity","flit.fec",   250, 6, UAL_LE, 0, 48, UAL_FF_HEX, NULL, "3.4.6") \
  X(SH_ALT,       UAL_SC_SH,  "DLAltSector",    "sh.alt",        0, 1, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "Table 2-2") \
  X(SH_RSVD1,     UAL_SC_SH,  "Reserved",       "sh.rsvd1",      0, 1, UAL_LE, 1, 1, UAL_FF_RESERVED, NULL, "Table 2-2") \
  X(SH_TLBEAT,    UAL_SC_SH,  "TLBeat",         "sh.tlbeat",     0, 1, UAL_LE, 2, 5, UAL_FF_ENUM, UAL_V_(tlbeat), "Table 2-2") \
  X(SH_RSVD7,     UAL_SC_SH,  "Reserved",       "sh.rsvd7",      0, 1, UAL_LE, 7, 1, UAL_FF_RESERVED, NULL, "Table 2-2") \
  X(MSG_COMPRESSED,UAL_SC_MSG,"Compressed",     "msg.compressed",0, 4, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "2.4.1.1") \
  X(MSG_RSVD1,    UAL_SC_MSG, "Reserved",       "msg.rsvd1",     0, 4, UAL_LE, 1, 1, UAL_FF_RESERVED, NULL, "2.4.1.1") \
  X(MSG_MCLASS,   UAL_SC_MSG, "mclass",         "msg.mclass",    0, 4, UAL_LE, 2, 4, UAL_FF_ENUM, UAL_V_(mclass), "2.4.1.1") \
  X(MSG_MTYPE,    UAL_SC_MSG, "mtype",          "msg.mtype",     0, 4, UAL_LE, 6, 3, 0, NULL, "2.4.1.1") \
  X(NOOP_RSVD,    UAL_SC_MSG_NOOP, "Reserved",  "noop.rsvd",     0, 4, UAL_LE, 9, 23, UAL_FF_RESERVED, NULL, "Table 2-7") \
  X(RATE_RSVD9,   UAL_SC_MSG_TL_RATE, "Reserved","tl_rate.rsvd9",0, 4, UAL_LE, 9, 3, UAL_FF_RESERVED, NULL, "Table 2-4") \
  X(RATE_ACK,     UAL_SC_MSG_TL_RATE, "Ack",    "tl_rate.ack",   0, 4, UAL_LE, 12, 1, 0, UAL_V_(ack), "Table 2-4") \
  X(RATE_RSVD13,  UAL_SC_MSG_TL_RATE, "Reserved","tl_rate.rsvd13",0,4, UAL_LE, 13, 3, UAL_FF_RESERVED, NULL, "Table 2-4") \
  X(RATE_RATE,    UAL_SC_MSG_TL_RATE, "Rate",   "tl_rate.rate",  0, 4, UAL_LE, 16, 16, 0, NULL, "Table 2-4") \
  X(DEVID_RSVD9,  UAL_SC_MSG_DEVICE_ID, "Reserved","device_id.rsvd9",0,4,UAL_LE, 9, 3, UAL_FF_RESERVED, NULL, "Table 2-5") \
  X(DEVID_ACK,    UAL_SC_MSG_DEVICE_ID, "Ack",  "device_id.ack", 0, 4, UAL_LE, 12, 1, 0, UAL_V_(ack), "Table 2-5") \
  X(DEVID_RSVD13, UAL_SC_MSG_DEVICE_ID, "Reserved","device_id.rsvd13",0,4,UAL_LE,13, 3, UAL_FF_RESERVED, NULL, "Table 2-5") \
  X(DEVID_ID,     UAL_SC_MSG_DEVICE_ID, "ID",   "device_id.id",  0, 4, UAL_LE, 16, 10, 0, NULL, "Table 2-5") \
  X(DEVID_RSVD26, UAL_SC_MSG_DEVICE_ID, "Reserved","device_id.rsvd26",0,4,UAL_LE,26, 3, UAL_FF_RESERVED, NULL, "Table 2-5") \
  X(DEVID_TYPE,   UAL_SC_MSG_DEVICE_ID, "Type", "device_id.type",0, 4, UAL_LE, 29, 2, UAL_FF_ENUM, UAL_V_(dev_type), "Table 2-5") \
  X(DEVID_VALID,  UAL_SC_MSG_DEVICE_ID, "Valid","device_id.valid",0,4, UAL_LE, 31, 1, 0, UAL_V_(valid), "Table 2-5") \
  X(PORT_RSVD9,   UAL_SC_MSG_PORT_NUMBER, "Reserved","port_number.rsvd9",0,4,UAL_LE, 9, 3, UAL_FF_RESERVED, NULL, "Table 2-6") \
  X(PORT_ACK,     UAL_SC_MSG_PORT_NUMBER, "Ack","port_number.ack",0, 4, UAL_LE, 12, 1, 0, UAL_V_(ack), "Table 2-6") \
  X(PORT_RSVD13,  UAL_SC_MSG_PORT_NUMBER, "Reserved","port_number.rsvd13",0,4,UAL_LE,13, 3, UAL_FF_RESERVED, NULL, "Table 2-6") \
  X(PORT_PORT,    UAL_SC_MSG_PORT_NUMBER, "Port","port_number.port",0,4, UAL_LE, 16, 12, 0, NULL, "Table 2-6") \
  X(PORT_RSVD28,  UAL_SC_MSG_PORT_NUMBER, "Reserved","port_number.rsvd28",0,4,UAL_LE,28, 3, UAL_FF_RESERVED, NULL, "Table 2-6") \
  X(PORT_VALID,   UAL_SC_MSG_PORT_NUMBER, "Valid","port_number.valid",0,4,UAL_LE, 31, 1, 0, UAL_V_(valid), "Table 2-6") \
  UAL_CTRL_FIELDS_(X, WIDTH, UAL_SC_MSG_LINK_WIDTH, width, "link_width", "Table 2-8") \
  UAL_CTRL_FIELDS_(X, SPEED, UAL_SC_MSG_LINK_SPEED, speed, "link_speed", "Table 2-9") \
  UAL_CTRL_FIELDS_(X, STATE, UAL_SC_MSG_LINK_STATE, state, "link_state", "Table 2-10") \
  X(CHAN_RSVD9,   UAL_SC_MSG_CHANNEL, "Reserved","channel.rsvd9", 0, 4, UAL_LE, 9, 7, UAL_FF_RESERVED, NULL, "Table 2-11") \
  X(CHAN_TARGET,  UAL_SC_MSG_CHANNEL, "TargetState","channel.target",0,4,UAL_LE,16, 4, UAL_FF_ENUM, UAL_V_(channel), "Table 2-11") \
  X(CHAN_CMD,     UAL_SC_MSG_CHANNEL, "Command","channel.command",0, 4, UAL_LE, 20, 4, UAL_FF_ENUM, UAL_V_(ctrl_cmd), "Table 2-11") \
  X(CHAN_RESP,    UAL_SC_MSG_CHANNEL, "Response","channel.response",0,4,UAL_LE, 24, 4, UAL_FF_ENUM, UAL_V_(channel), "Table 2-11") \
  X(CHAN_RSVD28,  UAL_SC_MSG_CHANNEL, "Reserved","channel.rsvd28",0, 4, UAL_LE, 28, 4, UAL_FF_RESERVED, NULL, "Table 2-11") \
  X(UTX_STREAM,   UAL_SC_MSG_UART_TRANSPORT, "Stream ID","uart_transport.stream",0,4,UAL_LE, 9, 3, UAL_FF_ENUM, UAL_V_(stream), "Table 2-15") \
  X(UTX_RSVD12,   UAL_SC_MSG_UART_TRANSPORT, "Reserved","uart_transport.rsvd12",0,4,UAL_LE,12,15, UAL_FF_RESERVED, NULL, "Table 2-15") \
  X(UTX_LENGTH,   UAL_SC_MSG_UART_TRANSPORT, "Length","uart_transport.length",0,4,UAL_LE, 27, 5, 0, NULL, "Table 2-15") \
  X(UCR_STREAM,   UAL_SC_MSG_UART_CREDIT, "Stream ID","uart_credit.stream",0,4,UAL_LE, 9, 3, UAL_FF_ENUM, UAL_V_(stream), "Table 2-16") \
  X(UCR_RSVD12,   UAL_SC_MSG_UART_CREDIT, "Reserved","uart_credit.rsvd12",0,4,UAL_LE,12, 8, UAL_FF_RESERVED, NULL, "Table 2-16") \
  X(UCR_FCSEQ,    UAL_SC_MSG_UART_CREDIT, "DataFCSeq","uart_credit.data_fc_seq",0,4,UAL_LE,20,12, 0, NULL, "Table 2-16") \
  X(URQ_STREAM,   UAL_SC_MSG_UART_RESET_REQ, "Stream ID","uart_reset_req.stream",0,4,UAL_LE, 9, 3, UAL_FF_ENUM, UAL_V_(stream), "Table 2-13") \
  X(URQ_ALL,      UAL_SC_MSG_UART_RESET_REQ, "allStreams","uart_reset_req.all_streams",0,4,UAL_LE,12,1, UAL_FF_BOOL, NULL, "Table 2-13") \
  X(URQ_RSVD13,   UAL_SC_MSG_UART_RESET_REQ, "Reserved","uart_reset_req.rsvd13",0,4,UAL_LE,13,19, UAL_FF_RESERVED, NULL, "Table 2-13") \
  X(URS_STREAM,   UAL_SC_MSG_UART_RESET_RSP, "Stream ID","uart_reset_rsp.stream",0,4,UAL_LE, 9, 3, UAL_FF_ENUM, UAL_V_(stream), "Table 2-14") \
  X(URS_ALL,      UAL_SC_MSG_UART_RESET_RSP, "allStreams","uart_reset_rsp.all_streams",0,4,UAL_LE,12,1, UAL_FF_BOOL, NULL, "Table 2-14") \
  X(URS_STATUS,   UAL_SC_MSG_UART_RESET_RSP, "Status","uart_reset_rsp.status",0,4,UAL_LE,13, 3, UAL_FF_ENUM, UAL_V_(status), "Table 2-14") \
  X(URS_RSVD16,   UAL_SC_MSG_UART_RESET_RSP, "Reserved","uart_reset_rsp.rsvd16",0,4,UAL_LE,16,16, UAL_FF_RESERVED, NULL, "Table 2-14") \
  X(OS_LANE,      UAL_SC_OS, "Lane",           "os.lane",       0, 1, UAL_LE, 0, 8, 0, NULL, "capture-format") \
  X(OS_ENCODING,  UAL_SC_OS, "Encoding",       "os.encoding",   1, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(os_encoding), "capture-format") \
  X(OS_KMASK,     UAL_SC_OS, "K-symbol mask",  "os.kmask",      2, 2, UAL_LE, 0, 16, UAL_FF_HEX, NULL, "capture-format") \
  X(TS_LINK,      UAL_SC_TS, "Link Number",    "ts.link_number",1, 1, UAL_LE, 0, 8, 0, UAL_V_(ts_number), "PCIe 4.2.5") \
  X(TS_LANE,      UAL_SC_TS, "Lane Number",    "ts.lane_number",2, 1, UAL_LE, 0, 8, 0, UAL_V_(ts_number), "PCIe 4.2.5") \
  X(TS_NFTS,      UAL_SC_TS, "N_FTS",          "ts.n_fts",      3, 1, UAL_LE, 0, 8, 0, NULL, "PCIe 4.2.5") \
  X(TS_FLIT_MODE, UAL_SC_TS, "Flit Mode Supported","ts.flit_mode",4,1,UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "3.5") \
  X(TS_SPEEDS,    UAL_SC_TS, "Data Rates Supported","ts.speeds",4,1, UAL_LE, 1, 6, UAL_FF_HEX, UAL_V_(ts_speeds), "PCIe 4.2.5") \
  X(TS_RATE_RSVD, UAL_SC_TS, "Data Rate bit 7","ts.rate_hi", 4, 1, UAL_LE, 7, 1, 0, NULL, "PCIe 4.2.5") \
  X(TS_HOT_RESET, UAL_SC_TS, "Hot Reset",      "ts.hot_reset",  5, 1, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "PCIe 4.2.5") \
  X(TS_DISABLE,   UAL_SC_TS, "Disable Link",   "ts.disable",    5, 1, UAL_LE, 1, 1, UAL_FF_BOOL, NULL, "PCIe 4.2.5") \
  X(TS_LOOPBACK,  UAL_SC_TS, "Loopback",       "ts.loopback",   5, 1, UAL_LE, 2, 1, UAL_FF_BOOL, NULL, "PCIe 4.2.5") \
  X(TS_TC_MID,    UAL_SC_TS, "Training Control bits 5:3","ts.tc_mid",5,1,UAL_LE, 3, 3, 0, NULL, "PCIe 4.2.5") \
  X(TS_MODIFIED,  UAL_SC_TS, "Modified TS Supported","ts.modified_support",5,1,UAL_LE,6,2, 0, NULL, "PCIe 4.2.5") \
  X(TS_EC,        UAL_SC_TS_EQ, "Equalization Control","ts.ec",6, 1, UAL_LE, 0, 2, 0, NULL, "PCIe 4.2.5, digest 5.4") \
  X(MTS_USAGE,    UAL_SC_MTS, "Modified TS Usage","ts.mts_usage",8, 1, UAL_LE, 0, 3, 0, UAL_V_(mts_usage), "3.5") \
  X(MTS_INFO1,    UAL_SC_MTS, "Modified TS Information 1","ts.mts_info1",8,2,UAL_LE, 3, 13, UAL_FF_HEX, NULL, "3.5") \
  X(MTS_VENDOR,   UAL_SC_MTS, "Alternate Protocol Vendor ID","ts.vendor_id",10,2,UAL_LE,0,16, UAL_FF_HEX, NULL, "3.5") \
  X(VDP_LENGTH,   UAL_SC_VDP, "Length",        "vdp.length",    0, 4, UAL_LE, 0, 8, 0, NULL, "Figure 2-16") \
  X(VDP_TYPE,     UAL_SC_VDP, "Type",          "vdp.type",      0, 4, UAL_LE, 8, 8, UAL_FF_HEX, NULL, "Figure 2-16") \
  X(VDP_VENDOR,   UAL_SC_VDP, "Vendor ID",     "vdp.vendor_id", 0, 4, UAL_LE, 16, 16, UAL_FF_HEX, NULL, "Figure 2-16") \
  X(GEN_USAGE,    UAL_SC_GEN, "Flit Usage",    "fh.usage",      0, 0, UAL_LE, 0, 3, 0, UAL_V_(fh_usage), "Table 3-1") \
  X(GEN_KIND,     UAL_SC_GEN, "Flit kind",     "flit.kind",     0, 0, UAL_LE, 0, 8, 0, UAL_V_(flit_kind), "3.4") \
  X(GEN_CRC_CALC, UAL_SC_GEN, "CRC-64 (calculated)","flit.crc_calc",0,0,UAL_LE,0,64, UAL_FF_HEX, NULL, "3.4.6") \
  X(GEN_CRC_OK,   UAL_SC_GEN, "CRC-64 good",   "flit.crc_ok",   0, 0, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "3.4.6") \
  X(GEN_FEC,      UAL_SC_GEN, "FEC status",    "flit.fec_status",0,0, UAL_LE, 0, 8, 0, UAL_V_(fec_status), "3.4.6") \
  X(GEN_MSG_TYPE, UAL_SC_GEN, "DL message type","msg.type",     0, 0, UAL_LE, 0, 8, 0, UAL_V_(msg_type), "2.4.1.1") \
  X(GEN_OS_TYPE,  UAL_SC_GEN, "Ordered set type","os.type",     0, 0, UAL_LE, 0, 8, 0, UAL_V_(os_type), "3.5")

#endif
