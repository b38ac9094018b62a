#!/usr/bin/env python3
"""The TUI's counters (test_tui_model --counts) equal ualink-decode --stats --json
for every sample capture, of every fabric: the Link State and Statistics
screens show what --stats shows.
usage: tui_counts.py TEST_TUI_MODEL UALINK_DECODE CAPTURE..."""
import json
import subprocess
import sys

model, decode, captures = sys.argv[1], sys.argv[2], sys.argv[3:]
fails = 0


def check(cap, what, got, want):
    global fails
    if got != want:
        fails += 1
        print(f"FAIL {cap}: {what}: TUI {got}, ualink-decode --stats {want}")


for cap in captures:
    tui = json.loads(subprocess.run([model, "--counts", cap], check=True, capture_output=True, text=True).stdout)
    out = subprocess.run([decode, "-q", "--stats", "--json", cap], capture_output=True, text=True).stdout
    st = [json.loads(line) for line in out.splitlines() if line.strip()][-1]
    assert st["kind"] == "summary", cap
    check(cap, "malformed", tui["malformed"], st["by_kind"]["malformed"])
    check(cap, "span_ns", tui["span_ns"], st["span_ns"])
    check(cap, "findings by rule", tui["findings_by_rule"], st["findings_by_rule"])
    for d in ("A>B", "B>A"):
        t, s = tui["dirs"][d], st["dirs"][d]
        check(cap, f"{d} records", t["records"], s["records"] - s["malformed"])
        check(cap, f"{d} flits by usage", t["usage"], s["usage"])
        check(cap, f"{d} CRC bad", t["crc"]["bad"], s["crc"]["bad"])
        check(cap, f"{d} CRC inverted", t["crc"]["inverted"], s["crc"]["inverted"])
        check(cap, f"{d} FEC corrected", t["fec"]["corrected"], s["fec"]["corrected"])
        check(cap, f"{d} FEC uncorrectable", t["fec"]["uncorrectable"], s["fec"]["uncorrectable"])
        check(cap, f"{d} Naks", t["naks"], s["naks"])
        check(cap, f"{d} TL flits", t["tl_flits"], s["tl_flits"])
        check(cap, f"{d} DL messages", t["dl_msgs"], sum(s["dl_msgs"].values()))
        check(cap, f"{d} ordered sets", t["os"], s["os"])
        check(cap, f"{d} link events", t["event"], s["event"])
        p = st.get("pcie", {}).get(d, {"dllps": 0, "crc_bad": 0})
        check(cap, f"{d} PCIe DLLPs", t["pcie_dllps"], p["dllps"])
        check(cap, f"{d} PCIe CRC-16 bad", t["pcie_crc_bad"], p["crc_bad"])
        pf = st.get("pcie_flit", {}).get(d, {"flits": 0, "tlps": 0})
        check(cap, f"{d} PCIe flits", t["pcie_flits"], pf["flits"])
        check(cap, f"{d} PCIe TLPs", t["pcie_tlps"], pf["tlps"])
        u = s.get("ub", {"flits": 0, "bcrc_bad": 0, "dllcbs": {}})
        check(cap, f"{d} UB flits", t["ub"]["flits"], u["flits"])
        check(cap, f"{d} UB BCRC bad", t["ub"]["bcrc_bad"], u["bcrc_bad"])
        check(cap, f"{d} UB DLLDPs", t["ub"]["dlldps"], sum(v["dlldps"] for k, v in u.items() if k.startswith("vl")))
        check(cap, f"{d} UB DLLCBs", t["ub"]["dllcbs"], sum(u["dllcbs"].values()))
    print(f"{'ok' if not fails else 'checked'}: {cap}")
print(f"tui counts: {len(captures)} captures, {fails} differences")
sys.exit(1 if fails else 0)
