/* The UB (UnifiedBus) data link rows of the field table (digest ub-dl.md
 * §3): LPH, LBH, LCH, BCRC and END, each DLLCB type and the Init Block.
 * Pure X-macro lists with no includes, expanded by core/fields.h through
 * the registration in core/fabrics.h.
 *
 * UB_REC describes the record header bits kind 6 gives a meaning to (digest
 * §2) and the reserved rest of their bytes: the field tree shows them in
 * place of the record rows they cover (struct ual_kind.hdr_scope).
 *
 * Every other scope's base is byte 0 of the flit it describes (a 20-byte flit,
 * bytes in transmission order) except UB_LANE, whose base is the first
 * CMD byte (UAL_UB_LANE_CMD_OFFSET, decision U16). Fields spanning bytes
 * are big-endian containers, MSB in the lower byte (decision U9); bit 7 of
 * a byte is its MSB. Init Block positions are read from T's figures
 * (decision U20). One table to correct against the full specification. */
#ifndef UALINK_UB_FIELDS_H
#define UALINK_UB_FIELDS_H

#define UAL_UB_SCOPES(X) \
  X(UB_REC)             /* record header of kind 6, byte 0 of the record: the bits UB gives a meaning */ \
  X(UB_LPH)             /* DLLDB 0, flit 0, bytes 0-3 */ \
  X(UB_LBH)             /* DLLDB >= 1, flit 0, bytes 0-1 */ \
  X(UB_LCH)             /* DLLCB flit 0, bytes 0-3 */ \
  X(UB_BCRC)            /* CRC mode: last flit of every block */ \
  X(UB_END)             /* non-CRC mode: last flit of a DLLDP/DLLCB */ \
  X(UB_RETRY_REQ) \
  X(UB_RETRY_ACK) \
  X(UB_CRD_ACK)         /* Crd_Ack flit 0 */ \
  X(UB_PARAM)           /* every flit of a Param_Exchg block */ \
  X(UB_LANE)            /* Lane_Manage CMD byte 0 (U16) */ \
  X(UB_MODECHG) \
  X(UB_INIT0)           /* Init Block flits 0..3 (U20) */ \
  X(UB_INIT1) \
  X(UB_INIT2) \
  X(UB_INIT3) \
  X(UB_GEN)             /* values the decoder derives (size 0) */

/* Value-name lists ual_vals_<name>, defined in ub/values.c. */
#define UAL_UB_VALUE_LISTS(X) \
  X(ub_cfg) X(ub_cb_type) X(ub_modechg) X(ub_lane_w) X(ub_ack_nak) X(ub_role) X(ub_mode) X(ub_unit) X(ub_primary)

/* The first two bytes of LPH and LBH (T Tables 4-1, 4-2). */
#define UAL_UB_HDR01_(X, P, SC, PFX) \
  X(P##_CRD,     SC, "CRD",      PFX ".crd",     0, 2, UAL_BE, 15, 1, UAL_FF_BOOL, NULL, "T Table 4-1") \
  X(P##_ACK,     SC, "ACK",      PFX ".ack",     0, 2, UAL_BE, 14, 1, UAL_FF_BOOL, NULL, "T Table 4-1") \
  X(P##_CRD_VL,  SC, "CRD_VL",   PFX ".crd_vl",  0, 2, UAL_BE, 10, 4, 0, NULL, "T Table 4-1") \
  X(P##_RSVD9,   SC, "Reserved", PFX ".rsvd9",   0, 2, UAL_BE,  9, 1, UAL_FF_RESERVED, NULL, "T Table 4-1") \
  X(P##_VL,      SC, "VL",       PFX ".vl",      0, 2, UAL_BE,  5, 4, 0, NULL, "T Table 4-1") \
  X(P##_RSVD4,   SC, "Reserved", PFX ".rsvd4",   0, 2, UAL_BE,  4, 1, UAL_FF_RESERVED, NULL, "T Table 4-1") \
  X(P##_CFG,     SC, "CFG",      PFX ".cfg",     0, 2, UAL_BE,  0, 4, UAL_FF_ENUM, UAL_V_(ub_cfg), "T Table 4-1")

/* One 6-bit CRD_NUM[6n+5:6n] of the 96-bit field in Crd_Ack bytes 6-17
 * (bit 95 = byte 6 bit 7): a 2-byte container ending at the byte of bit 6n. */
#define UAL_UB_CRD_(X, n) \
  X(UB_CRD_NUM_VL##n, UAL_SC_UB_CRD_ACK, "CRD_NUM VL" #n, "ub.crd_ack.crd_num_vl" #n, \
    16 - (6 * (n)) / 8, 2, UAL_BE, (6 * (n)) % 8, 6, 0, NULL, "T Fig 4-21")

/* Per-VL credit grain bitmaps of the Init Block, one byte each. */
#define UAL_UB_GRAIN_(X, KIND, kind, n, SC, OFF, SEC) \
  X(UB_INIT_##KIND##_GRAIN_VL##n, SC, #KIND "_CREDIT_GRAIN_SIZE VL" #n, \
    "ub.init." kind "_credit_grain_vl" #n, OFF, 1, UAL_BE, 0, 8, UAL_FF_HEX, NULL, SEC)

/* X(ID, scope, "Name", "filter name" (protocol "ub", core/fabrics.h),
 *   offset, size, endian, lsb, width, flags, value list or NULL, "spec section") */
#define UAL_UB_FIELDS(X) \
  X(UB_REC_FEC_CORR,  UAL_SC_UB_REC, "FEC corrected",    "ub.rec.fec_corrected", 2, 1, UAL_LE, 3, 1, UAL_FF_BOOL, NULL, "ub-dl U2") \
  X(UB_REC_FLAGS_RSVD,UAL_SC_UB_REC, "Reserved flags",   "ub.rec.flags_rsvd",    2, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "ub-dl U2") \
  X(UB_REC_PRIMARY,   UAL_SC_UB_REC, "PHY primary port", "ub.rec.primary",       6, 1, UAL_LE, 4, 2, 0, UAL_V_(ub_primary), "ub-dl U5") \
  X(UB_REC_ROLES_RSVD,UAL_SC_UB_REC, "Reserved roles",   "ub.rec.roles_rsvd",    6, 1, UAL_LE, 6, 2, UAL_FF_RESERVED, NULL, "ub-dl U5") \
  X(UB_REC_HINT,      UAL_SC_UB_REC, "Mode hint",        "ub.rec.mode_hint",     7, 1, UAL_LE, 0, 2, 0, UAL_V_(ub_mode), "ub-dl U6") \
  X(UB_REC_FEC_BYPASS,UAL_SC_UB_REC, "FEC bypassed",     "ub.rec.fec_bypass",    7, 1, UAL_LE, 2, 1, UAL_FF_BOOL, NULL, "ub-dl U22") \
  X(UB_REC_RSVD,      UAL_SC_UB_REC, "Reserved",         "ub.rec.rsvd",          7, 1, UAL_LE, 3, 5, UAL_FF_RESERVED, NULL, "ub-dl U6") \
  UAL_UB_HDR01_(X, UB_LPH, UAL_SC_UB_LPH, "ub.lph") \
  X(UB_LPH_RT,      UAL_SC_UB_LPH, "RT",               "ub.lph.rt",       2, 2, UAL_BE, 14, 2, 0, NULL, "T Table 4-1") \
  X(UB_LPH_NDB,     UAL_SC_UB_LPH, "PLENGTH[13:10] (DLLDBs-1)", "ub.lph.plength_ndb", 2, 2, UAL_BE, 10, 4, 0, NULL, "T Table 4-1") \
  X(UB_LPH_NLAST,   UAL_SC_UB_LPH, "PLENGTH[9:5] (flits in last DLLDB-1)", "ub.lph.plength_nlast", 2, 2, UAL_BE, 5, 5, 0, NULL, "T Table 4-1") \
  X(UB_LPH_ENDCODE, UAL_SC_UB_LPH, "PLENGTH[4:0] (end code)", "ub.lph.plength_end", 2, 2, UAL_BE, 0, 5, 0, NULL, "T 4.3.2.2.2") \
  UAL_UB_HDR01_(X, UB_LBH, UAL_SC_UB_LBH, "ub.lbh") \
  X(UB_LCH_FIXED7,  UAL_SC_UB_LCH, "Fixed 0",          "ub.lch.fixed7",   0, 2, UAL_BE, 15, 1, 0, NULL, "T Table 4-5") \
  X(UB_LCH_CLENGTH, UAL_SC_UB_LCH, "CLENGTH (flits-1)","ub.lch.clength",  0, 2, UAL_BE, 10, 5, 0, NULL, "T Table 4-5") \
  X(UB_LCH_FIXED,   UAL_SC_UB_LCH, "Fixed 100000b",    "ub.lch.fixed",    0, 2, UAL_BE,  4, 6, UAL_FF_HEX, NULL, "T Table 4-5") \
  X(UB_LCH_CFG,     UAL_SC_UB_LCH, "CFG",              "ub.lch.cfg",      0, 2, UAL_BE,  0, 4, UAL_FF_ENUM, UAL_V_(ub_cfg), "T Table 4-5") \
  X(UB_LCH_CTRL,    UAL_SC_UB_LCH, "CTRL",             "ub.lch.ctrl",     2, 1, UAL_BE,  4, 4, 0, NULL, "T Table 4-6") \
  X(UB_LCH_SUB_CTRL,UAL_SC_UB_LCH, "SUB_CTRL",         "ub.lch.sub_ctrl", 2, 1, UAL_BE,  0, 4, 0, NULL, "T Table 4-6") \
  X(UB_BCRC_RSVD,   UAL_SC_UB_BCRC, "Reserved",        "ub.bcrc.rsvd",   16, 4, UAL_BE, 31, 1, UAL_FF_RESERVED, NULL, "T Table 4-3") \
  X(UB_BCRC_EF,     UAL_SC_UB_BCRC, "ERROR_FLAG",      "ub.bcrc.error_flag",16,4,UAL_BE, 30, 1, UAL_FF_BOOL, NULL, "T Table 4-3") \
  X(UB_BCRC_CRC30,  UAL_SC_UB_BCRC, "CRC30",           "ub.bcrc.crc30",  16, 4, UAL_BE,  0, 30, UAL_FF_HEX, NULL, "T 4.7.2") \
  X(UB_END_RSVD7,   UAL_SC_UB_END, "Reserved",         "ub.end.rsvd7",   19, 1, UAL_BE,  7, 1, UAL_FF_RESERVED, NULL, "T Table 4-4") \
  X(UB_END_EF,      UAL_SC_UB_END, "ERROR_FLAG",       "ub.end.error_flag",19,1,UAL_BE,  6, 1, UAL_FF_BOOL, NULL, "T Table 4-4") \
  X(UB_END_RSVD0,   UAL_SC_UB_END, "Reserved",         "ub.end.rsvd0",   19, 1, UAL_BE,  0, 6, UAL_FF_RESERVED, NULL, "T Table 4-4") \
  X(UB_RQ_RSVD3,    UAL_SC_UB_RETRY_REQ, "Reserved",   "ub.retry_req.rsvd3", 3, 1, UAL_BE, 0, 8, UAL_FF_RESERVED, NULL, "T Fig 4-19") \
  X(UB_RQ_RSVD4,    UAL_SC_UB_RETRY_REQ, "Reserved",   "ub.retry_req.rsvd4", 4, 4, UAL_BE, 0, 32, UAL_FF_RESERVED, NULL, "T Fig 4-19") \
  X(UB_RQ_RCVPTR,   UAL_SC_UB_RETRY_REQ, "RcvPtr",     "ub.retry_req.rcv_ptr", 8, 2, UAL_BE, 0, 16, 0, NULL, "T Fig 4-19") \
  X(UB_RQ_PHY_REINIT,UAL_SC_UB_RETRY_REQ,"NUM_PHY_REINIT","ub.retry_req.num_phy_reinit",10,1,UAL_BE,0,8, 0, NULL, "T Fig 4-19") \
  X(UB_RQ_NUM_RETRY,UAL_SC_UB_RETRY_REQ, "NUM_RETRY",  "ub.retry_req.num_retry", 11, 1, UAL_BE, 0, 8, 0, NULL, "T Fig 4-19") \
  X(UB_RQ_RSVD12,   UAL_SC_UB_RETRY_REQ, "Reserved",   "ub.retry_req.rsvd12", 12, 4, UAL_BE, 0, 32, UAL_FF_RESERVED, NULL, "T Fig 4-19") \
  X(UB_RA_RSVD3,    UAL_SC_UB_RETRY_ACK, "Reserved",   "ub.retry_ack.rsvd3", 3, 2, UAL_BE, 0, 16, UAL_FF_RESERVED, NULL, "T Fig 4-20") \
  X(UB_RA_NUM_RETRY,UAL_SC_UB_RETRY_ACK, "NUM_RETRY",  "ub.retry_ack.num_retry", 5, 1, UAL_BE, 0, 8, 0, NULL, "T Fig 4-20") \
  X(UB_RA_FREEBUF,  UAL_SC_UB_RETRY_ACK, "NumFreeBuf", "ub.retry_ack.num_free_buf", 6, 2, UAL_BE, 0, 16, 0, NULL, "T Fig 4-20") \
  X(UB_RA_RDPTR,    UAL_SC_UB_RETRY_ACK, "RdPtr",      "ub.retry_ack.rd_ptr", 8, 2, UAL_BE, 0, 16, 0, NULL, "T Fig 4-20") \
  X(UB_RA_WRPTR,    UAL_SC_UB_RETRY_ACK, "WrPtr",      "ub.retry_ack.wr_ptr", 10, 2, UAL_BE, 0, 16, 0, NULL, "T Fig 4-20") \
  X(UB_RA_RSVD12,   UAL_SC_UB_RETRY_ACK, "Reserved",   "ub.retry_ack.rsvd12", 12, 4, UAL_BE, 0, 32, UAL_FF_RESERVED, NULL, "T Fig 4-20") \
  X(UB_CA_SD,       UAL_SC_UB_CRD_ACK, "SD (last initial)", "ub.crd_ack.sd", 3, 1, UAL_BE, 7, 1, UAL_FF_BOOL, NULL, "T Fig 4-21") \
  X(UB_CA_RSVD,     UAL_SC_UB_CRD_ACK, "Reserved",     "ub.crd_ack.rsvd", 3, 1, UAL_BE, 1, 6, UAL_FF_RESERVED, NULL, "T Fig 4-21") \
  X(UB_CA_T,        UAL_SC_UB_CRD_ACK, "T (initial credit)", "ub.crd_ack.t", 3, 1, UAL_BE, 0, 1, UAL_FF_BOOL, NULL, "T Fig 4-21") \
  X(UB_CA_ACK_NUM,  UAL_SC_UB_CRD_ACK, "ACK_NUM",      "ub.crd_ack.ack_num", 4, 2, UAL_BE, 0, 16, 0, NULL, "T Fig 4-21") \
  UAL_UB_CRD_(X, 15) UAL_UB_CRD_(X, 14) UAL_UB_CRD_(X, 13) UAL_UB_CRD_(X, 12) \
  UAL_UB_CRD_(X, 11) UAL_UB_CRD_(X, 10) UAL_UB_CRD_(X, 9)  UAL_UB_CRD_(X, 8) \
  UAL_UB_CRD_(X, 7)  UAL_UB_CRD_(X, 6)  UAL_UB_CRD_(X, 5)  UAL_UB_CRD_(X, 4) \
  UAL_UB_CRD_(X, 3)  UAL_UB_CRD_(X, 2)  UAL_UB_CRD_(X, 1)  UAL_UB_CRD_(X, 0) \
  X(UB_PARAM_DATA,  UAL_SC_UB_PARAM, "PARAM_EXCHG_DATA", "ub.param.data", 8, 4, UAL_BE, 0, 32, UAL_FF_HEX, NULL, "T 4.3.3.5") \
  X(UB_LANE_REQ_ID, UAL_SC_UB_LANE, "REQ_ID",          "ub.lane.req_id", 0, 1, UAL_BE, 4, 4, UAL_FF_HEX, NULL, "T Table 4-7") \
  X(UB_LANE_RSVD03, UAL_SC_UB_LANE, "Reserved",        "ub.lane.rsvd03", 0, 1, UAL_BE, 3, 1, UAL_FF_RESERVED, NULL, "T Table 4-7") \
  X(UB_LANE_PWR_DOWN,UAL_SC_UB_LANE,"Power_Down",      "ub.lane.power_down", 0, 1, UAL_BE, 2, 1, UAL_FF_BOOL, NULL, "T Table 4-7") \
  X(UB_LANE_CHG_RLW,UAL_SC_UB_LANE, "Change_RLW",      "ub.lane.change_rlw", 0, 1, UAL_BE, 1, 1, UAL_FF_BOOL, NULL, "T Table 4-7") \
  X(UB_LANE_CHG_TLW,UAL_SC_UB_LANE, "Change_TLW",      "ub.lane.change_tlw", 0, 1, UAL_BE, 0, 1, UAL_FF_BOOL, NULL, "T Table 4-7") \
  X(UB_LANE_RSP_ID, UAL_SC_UB_LANE, "RSP_ID",          "ub.lane.rsp_id", 1, 1, UAL_BE, 4, 4, UAL_FF_HEX, NULL, "T Table 4-7") \
  X(UB_LANE_RSVD13, UAL_SC_UB_LANE, "Reserved",        "ub.lane.rsvd13", 1, 1, UAL_BE, 3, 1, UAL_FF_RESERVED, NULL, "T Table 4-7") \
  X(UB_LANE_RX_UP,  UAL_SC_UB_LANE, "RX_Lane_Up",      "ub.lane.rx_lane_up", 1, 1, UAL_BE, 2, 1, UAL_FF_BOOL, NULL, "T Table 4-7") \
  X(UB_LANE_RSP_RLW,UAL_SC_UB_LANE, "RSP_RLW",         "ub.lane.rsp_rlw", 1, 1, UAL_BE, 1, 1, 0, UAL_V_(ub_ack_nak), "T Table 4-7") \
  X(UB_LANE_RSP_TLW,UAL_SC_UB_LANE, "RSP_TLW",         "ub.lane.rsp_tlw", 1, 1, UAL_BE, 0, 1, 0, UAL_V_(ub_ack_nak), "T Table 4-7") \
  X(UB_LANE_RSVD26, UAL_SC_UB_LANE, "Reserved",        "ub.lane.rsvd26", 2, 1, UAL_BE, 6, 2, UAL_FF_RESERVED, NULL, "T Table 4-7") \
  X(UB_LANE_TLW,    UAL_SC_UB_LANE, "TLW",             "ub.lane.tlw",    2, 1, UAL_BE, 0, 6, UAL_FF_ENUM, UAL_V_(ub_lane_w), "T Table 4-7") \
  X(UB_LANE_RSVD36, UAL_SC_UB_LANE, "Reserved",        "ub.lane.rsvd36", 3, 1, UAL_BE, 6, 2, UAL_FF_RESERVED, NULL, "T Table 4-7") \
  X(UB_LANE_RLW,    UAL_SC_UB_LANE, "RLW",             "ub.lane.rlw",    3, 1, UAL_BE, 0, 6, UAL_FF_ENUM, UAL_V_(ub_lane_w), "T Table 4-7") \
  X(UB_LANE_RSVD4,  UAL_SC_UB_LANE, "Reserved",        "ub.lane.rsvd4",  4, 4, UAL_BE, 0, 32, UAL_FF_RESERVED, NULL, "T Table 4-7") \
  X(UB_MC_RSVD,     UAL_SC_UB_MODECHG, "Reserved",     "ub.mode_chg.rsvd", 3, 1, UAL_BE, 4, 4, UAL_FF_RESERVED, NULL, "T Fig 4-27") \
  X(UB_MC_TYPE,     UAL_SC_UB_MODECHG, "TYPE",         "ub.mode_chg.type", 3, 1, UAL_BE, 0, 4, UAL_FF_ENUM, UAL_V_(ub_modechg), "T 4.3.3.8") \
  X(UB_INIT_FEATURE,UAL_SC_UB_INIT0, "FEATURE_ID",     "ub.init.feature_id", 7, 2, UAL_BE, 0, 16, UAL_FF_HEX, NULL, "T Fig 4-29") \
  X(UB_INIT_RSVD9,  UAL_SC_UB_INIT0, "Reserved",       "ub.init.rsvd9",  9, 1, UAL_BE, 1, 7, UAL_FF_RESERVED, NULL, "T Fig 4-29") \
  X(UB_INIT_SHARE,  UAL_SC_UB_INIT0, "RXBUF_VL_SHARE", "ub.init.rxbuf_vl_share", 9, 1, UAL_BE, 0, 1, UAL_FF_BOOL, NULL, "T Fig 4-29") \
  X(UB_INIT_DATA_ACK,UAL_SC_UB_INIT0,"DATA_ACK_GRAIN_SIZE","ub.init.data_ack_grain", 10, 1, UAL_BE, 0, 8, UAL_FF_HEX, NULL, "T Fig 4-29") \
  X(UB_INIT_CTRL_ACK,UAL_SC_UB_INIT0,"CTRL_ACK_GRAIN_SIZE","ub.init.ctrl_ack_grain", 11, 1, UAL_BE, 0, 8, UAL_FF_HEX, NULL, "T Fig 4-29") \
  X(UB_INIT_FC_SIZE,UAL_SC_UB_INIT0, "FLOW_CTRL_SIZE", "ub.init.flow_ctrl_size", 12, 1, UAL_BE, 0, 8, UAL_FF_HEX, NULL, "T Fig 4-29") \
  X(UB_INIT_VL_EN,  UAL_SC_UB_INIT0, "VL_ENABLE",      "ub.init.vl_enable", 13, 2, UAL_BE, 0, 16, UAL_FF_HEX, NULL, "T Fig 4-29") \
  X(UB_INIT_RSVD15, UAL_SC_UB_INIT0, "Reserved",       "ub.init.rsvd15", 15, 1, UAL_BE, 0, 8, UAL_FF_RESERVED, NULL, "T Fig 4-29") \
  X(UB_INIT_BUF_DEPTH,UAL_SC_UB_INIT0,"RETRY_BUF_DEPTH","ub.init.retry_buf_depth", 16, 2, UAL_BE, 0, 16, 0, NULL, "T Fig 4-29") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 13, UAL_SC_UB_INIT1, 4, "T Fig 4-30")  UAL_UB_GRAIN_(X, CTRL, "ctrl", 12, UAL_SC_UB_INIT1, 5, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 11, UAL_SC_UB_INIT1, 6, "T Fig 4-30")  UAL_UB_GRAIN_(X, CTRL, "ctrl", 10, UAL_SC_UB_INIT1, 7, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 9, UAL_SC_UB_INIT1, 8, "T Fig 4-30")   UAL_UB_GRAIN_(X, CTRL, "ctrl", 8, UAL_SC_UB_INIT1, 9, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 7, UAL_SC_UB_INIT1, 10, "T Fig 4-30")  UAL_UB_GRAIN_(X, CTRL, "ctrl", 6, UAL_SC_UB_INIT1, 11, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 5, UAL_SC_UB_INIT1, 12, "T Fig 4-30")  UAL_UB_GRAIN_(X, CTRL, "ctrl", 4, UAL_SC_UB_INIT1, 13, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 3, UAL_SC_UB_INIT1, 14, "T Fig 4-30")  UAL_UB_GRAIN_(X, CTRL, "ctrl", 2, UAL_SC_UB_INIT1, 15, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 1, UAL_SC_UB_INIT1, 16, "T Fig 4-30")  UAL_UB_GRAIN_(X, CTRL, "ctrl", 0, UAL_SC_UB_INIT1, 17, "T Fig 4-30") \
  UAL_UB_GRAIN_(X, DATA, "data", 11, UAL_SC_UB_INIT2, 4, "T Fig 4-31")  UAL_UB_GRAIN_(X, DATA, "data", 10, UAL_SC_UB_INIT2, 5, "T Fig 4-31") \
  UAL_UB_GRAIN_(X, DATA, "data", 9, UAL_SC_UB_INIT2, 6, "T Fig 4-31")   UAL_UB_GRAIN_(X, DATA, "data", 8, UAL_SC_UB_INIT2, 7, "T Fig 4-31") \
  UAL_UB_GRAIN_(X, DATA, "data", 7, UAL_SC_UB_INIT2, 8, "T Fig 4-31")   UAL_UB_GRAIN_(X, DATA, "data", 6, UAL_SC_UB_INIT2, 9, "T Fig 4-31") \
  UAL_UB_GRAIN_(X, DATA, "data", 5, UAL_SC_UB_INIT2, 10, "T Fig 4-31")  UAL_UB_GRAIN_(X, DATA, "data", 4, UAL_SC_UB_INIT2, 11, "T Fig 4-31") \
  UAL_UB_GRAIN_(X, DATA, "data", 3, UAL_SC_UB_INIT2, 12, "T Fig 4-31")  UAL_UB_GRAIN_(X, DATA, "data", 2, UAL_SC_UB_INIT2, 13, "T Fig 4-31") \
  UAL_UB_GRAIN_(X, DATA, "data", 1, UAL_SC_UB_INIT2, 14, "T Fig 4-31")  UAL_UB_GRAIN_(X, DATA, "data", 0, UAL_SC_UB_INIT2, 15, "T Fig 4-31") \
  UAL_UB_GRAIN_(X, CTRL, "ctrl", 15, UAL_SC_UB_INIT2, 16, "T Fig 4-31") UAL_UB_GRAIN_(X, CTRL, "ctrl", 14, UAL_SC_UB_INIT2, 17, "T Fig 4-31") \
  X(UB_INIT_MIN_INTERVAL,UAL_SC_UB_INIT3,"PACKET_MIN_INTERVAL","ub.init.packet_min_interval", 13, 1, UAL_BE, 0, 8, 0, NULL, "T Fig 4-32") \
  UAL_UB_GRAIN_(X, DATA, "data", 15, UAL_SC_UB_INIT3, 14, "T Fig 4-32") UAL_UB_GRAIN_(X, DATA, "data", 14, UAL_SC_UB_INIT3, 15, "T Fig 4-32") \
  UAL_UB_GRAIN_(X, DATA, "data", 13, UAL_SC_UB_INIT3, 16, "T Fig 4-32") UAL_UB_GRAIN_(X, DATA, "data", 12, UAL_SC_UB_INIT3, 17, "T Fig 4-32") \
  X(UB_GEN_ROLE,    UAL_SC_UB_GEN, "Flit role",        "ub.flit.role",    0, 0, UAL_BE, 0, 8, 0, UAL_V_(ub_role), "T 4.3.4.1") \
  X(UB_GEN_MODE,    UAL_SC_UB_GEN, "Mode",             "ub.mode",         0, 0, UAL_BE, 0, 8, 0, UAL_V_(ub_mode), "T 4.3.3.8") \
  X(UB_GEN_CB_TYPE, UAL_SC_UB_GEN, "DLLCB type",       "ub.dllcb.type",   0, 0, UAL_BE, 0, 8, UAL_FF_HEX, UAL_V_(ub_cb_type), "T Table 4-6") \
  X(UB_GEN_CRC_CALC,UAL_SC_UB_GEN, "CRC30 (calculated)","ub.bcrc.crc30_calc", 0, 0, UAL_BE, 0, 30, UAL_FF_HEX, NULL, "T 4.7.2") \
  X(UB_GEN_CRC_OK,  UAL_SC_UB_GEN, "BCRC good",        "ub.bcrc.ok",      0, 0, UAL_BE, 0, 1, UAL_FF_BOOL, NULL, "T 4.7.2") \
  X(UB_GEN_UNIT,    UAL_SC_UB_GEN, "Completed",        "ub.unit",         0, 0, UAL_BE, 0, 8, 0, UAL_V_(ub_unit), "T 4.3") \
  X(UB_GEN_FLITS,   UAL_SC_UB_GEN, "Flits",            "ub.unit.flits",   0, 0, UAL_BE, 0, 16, 0, NULL, "T 4.3.2") \
  X(UB_GEN_PAYLOAD, UAL_SC_UB_GEN, "Payload bytes",    "ub.dlldp.payload_len", 0, 0, UAL_BE, 0, 16, 0, NULL, "T 4.3.2.2.2") \
  X(UB_GEN_VL,      UAL_SC_UB_GEN, "DLLDP VL",         "ub.dlldp.vl",     0, 0, UAL_BE, 0, 4, 0, NULL, "T Table 4-1")

#endif
